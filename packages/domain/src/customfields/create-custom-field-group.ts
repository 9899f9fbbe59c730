import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate } from '../shared/entity/index.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateCustomFieldGroupInput } from './custom-field.schema.js';

/** A group of one model's custom fields; the model (checked to exist first) is named as {id} or by modelId. */
export const createCustomFieldGroup: EntityCreate<CreateCustomFieldGroupInput> = {
  async run({ tx }, input) {
    const modelId = (input.model?.id ?? input.modelId) as string;
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
  },
};
