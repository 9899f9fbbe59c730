import { ValidationError } from '../shared/errors.js';
import { assertReferencesExist } from '../shared/references.js';
import type { WriteContext } from '../shared/resources/definition.js';
import type { UpdateCustomFieldInput } from './custom-field.schema.js';

export async function updateCustomField({ ctx, tx, now }: WriteContext, id: string, input: UpdateCustomFieldInput) {
  await assertReferencesExist(tx, ctx.principal.environmentId, [
    { path: 'custom_field_group_id', table: 'custom_field_group', id: input.custom_field_group_id },
  ]);
  if (input.custom_field_group_id) {
    const [field, group] = await Promise.all([
      tx.customField.findFirst({ where: { id } }),
      tx.customFieldGroup.findFirst({ where: { id: input.custom_field_group_id } }),
    ]);
    if (field && group && group.modelId !== field.modelId) {
      throw new ValidationError([
        { path: 'custom_field_group_id', message: 'the group belongs to another model', code: 'invalid_value' },
      ]);
    }
  }
  await tx.customField.update({
    where: { id },
    data: {
      label: input.label,
      groupId: input.custom_field_group_id,
      position: input.position,
      filterable: input.filterable,
      searchable: input.searchable,
      mandatory: input.mandatory,
      updatedAt: now,
    },
  });
}
