import type { EntityUpdate } from '../shared/entity/index.js';
import type { UpdateCustomFieldOptionInput } from './custom-field.schema.js';

export const updateCustomFieldOption: EntityUpdate<UpdateCustomFieldOptionInput> = {
  async run({ sql, now }, id, input) {
    await sql.update('custom_field_option', id, {
      label: input.label,
      value: input.value,
      position: input.position,
      updated_at: now,
    });
  },
};
