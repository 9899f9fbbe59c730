import { SCOPED_ENVIRONMENT } from '@bo/db';
import { newEntityId } from '../shared/ids.js';
import { assertReferencesExist } from '../shared/references.js';
import type { WriteContext } from '../shared/resources/definition.js';
import type { CreateCustomFieldGroupInput } from './custom-field.schema.js';

export async function createCustomFieldGroup({ ctx, tx }: WriteContext, input: CreateCustomFieldGroupInput): Promise<string> {
  const modelId = (input.model?.id ?? input.model_id) as string;
  await assertReferencesExist(tx, ctx.principal.environmentId, [
    { path: input.model ? 'model.id' : 'model_id', table: 'custom_field_model', id: modelId },
  ]);
  const id = newEntityId('customfieldgroup');
  await tx.customFieldGroup.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      modelId,
      name: input.name,
      position: input.position === undefined ? 0 : Number(input.position),
      type: input.type ?? null,
    },
  });
  return id;
}
