import type { EntityUpdate } from '../shared/entity/index.js';
import { ValidationError } from '../shared/errors.js';
import type { UpdateCustomFieldInput } from './custom-field.schema.js';

/** Changes a definition; a new group (checked to exist first) must be of the field's model. */
export const updateCustomField: EntityUpdate<UpdateCustomFieldInput> = {
  async run({ tx, now }, id, input) {
    if (input.groupId) {
      const [field, group] = await Promise.all([
        tx.customField.findFirst({ where: { id } }),
        tx.customFieldGroup.findFirst({ where: { id: input.groupId } }),
      ]);
      if (field && group && group.modelId !== field.modelId) {
        throw new ValidationError([{ path: 'groupId', message: 'the group belongs to another model', code: 'invalid_value' }]);
      }
    }
    await tx.customField.update({
      where: { id },
      data: {
        label: input.label,
        groupId: input.groupId,
        position: input.position,
        filterable: input.filterable,
        searchable: input.searchable,
        mandatory: input.mandatory,
        updatedAt: now,
      },
    });
  },
};
