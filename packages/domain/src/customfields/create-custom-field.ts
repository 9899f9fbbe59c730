import { SCOPED_ENVIRONMENT } from '@bo/db';
import { ConflictError, ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import { assertReferencesExist } from '../shared/references.js';
import type { WriteContext } from '../shared/resources/definition.js';
import type { CreateCustomFieldInput } from './custom-field.schema.js';

export async function createCustomField(
  { ctx, tx }: WriteContext,
  modelKey: string,
  input: CreateCustomFieldInput,
): Promise<string> {
  const model = await tx.customFieldModel.findFirst({ where: { key: modelKey } });
  if (!model) throw new ValidationError([{ path: '', message: `no custom-field model ${modelKey}`, code: 'not_found' }]);
  const type = await tx.customFieldType.findFirst({ where: { OR: [{ id: input.type }, { type: input.type }] } });
  if (!type) throw new ValidationError([{ path: 'type', message: `no custom-field type ${input.type}`, code: 'not_found' }]);
  await assertReferencesExist(tx, ctx.principal.environmentId, [
    { path: 'custom_field_group_id', table: 'custom_field_group', id: input.custom_field_group_id },
  ]);
  if (input.custom_field_group_id) {
    const group = await tx.customFieldGroup.findFirst({ where: { id: input.custom_field_group_id } });
    if (group && group.modelId !== model.id) {
      throw new ValidationError([
        { path: 'custom_field_group_id', message: 'the group belongs to another model', code: 'invalid_value' },
      ]);
    }
  }
  if (await tx.customField.findFirst({ where: { modelKey, name: input.name } })) {
    throw new ConflictError(`a ${modelKey} custom field named "${input.name}" exists already`);
  }
  const id = newEntityId('customfield');
  await tx.customField.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      modelId: model.id,
      modelKey,
      typeId: type.id,
      groupId: input.custom_field_group_id ?? null,
      name: input.name,
      label: input.label,
      position: input.position ?? 0,
      filterable: input.filterable ?? true,
      searchable: input.searchable ?? true,
      mandatory: input.mandatory ?? false,
    },
  });
  return id;
}
