import type { EntityUpdate } from '../shared/entity/index.js';
import type { UpdateCustomFieldGroupInput } from './custom-field.schema.js';

export const updateCustomFieldGroup: EntityUpdate<UpdateCustomFieldGroupInput> = {
  async run({ tx, now }, id, input) {
    await tx.customFieldGroup.update({
      where: { id },
      data: {
        name: input.name,
        position: input.position === undefined ? undefined : Number(input.position),
        type: input.type,
        updatedAt: now,
      },
    });
  },
};
