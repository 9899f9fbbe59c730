import type { EntityUpdate } from '../shared/entity/index.js';
import type { UpdateCustomFieldOptionInput } from './custom-field.schema.js';

export const updateCustomFieldOption: EntityUpdate<UpdateCustomFieldOptionInput> = {
  async run({ tx, now }, id, input) {
    await tx.customFieldOption.update({
      where: { id },
      data: { label: input.label, value: input.value, position: input.position, updatedAt: now },
    });
  },
};
