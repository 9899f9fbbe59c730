import type { EntityCreate } from '../shared/entity/index.js';
import { ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateCustomFieldOptionInput } from './custom-field.schema.js';

/** An option of a dropdown or radio field, named by customFieldId; a field without options refuses it. */
export const createCustomFieldOption: EntityCreate<CreateCustomFieldOptionInput> = {
  async run({ sql, now }, input) {
    const [field] = await sql.read<{ id: string; type: string; has_options: boolean }>(
      `SELECT f.id, t.type, t.has_options FROM custom_field f
         JOIN custom_field_type t ON t.environment_id = $1 AND t.id = f.type_id
        WHERE f.environment_id = $1 AND f.id = $2`,
      [input.customFieldId],
    );
    if (!field) {
      throw new ValidationError([
        { path: 'customFieldId', message: `no such record: ${input.customFieldId}`, code: 'not_found' },
      ]);
    }
    if (!field.has_options) {
      throw new ValidationError([
        { path: 'customFieldId', message: `a ${field.type} custom field has no options`, code: 'invalid_value' },
      ]);
    }
    const id = newEntityId('customfieldoption');
    await sql.insert('custom_field_option', {
      id,
      custom_field_id: field.id,
      label: input.label,
      value: input.value ?? input.label,
      position: input.position ?? 0,
      updated_at: now,
    });
    return id;
  },
};
