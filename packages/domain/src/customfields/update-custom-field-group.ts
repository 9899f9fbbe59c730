import type { EntityUpdate } from '../shared/entity/index.js';
import type { UpdateCustomFieldGroupInput } from './custom-field.schema.js';

export const updateCustomFieldGroup: EntityUpdate<UpdateCustomFieldGroupInput> = {
  async run({ sql, now }, id, input) {
    await sql.update('custom_field_group', id, {
      name: input.name,
      position: input.position === undefined ? undefined : Number(input.position),
      type: input.type,
      updated_at: now,
    });
  },
};
