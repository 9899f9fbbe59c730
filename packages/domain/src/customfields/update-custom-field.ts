import { columnsOf } from '../shared/entity/columns.js';
import type { EntityUpdate } from '../shared/entity/index.js';
import { ValidationError } from '../shared/errors.js';
import type { UpdateCustomFieldInput } from './custom-field.schema.js';

/** Changes a definition; a new group (checked to exist first) must be of the field's model. */
export const updateCustomField: EntityUpdate<UpdateCustomFieldInput> = {
  async run({ sql, now }, id, input) {
    if (input.groupId) {
      const [other] = await sql.read<{ id: string }>(
        `SELECT g.id FROM custom_field f JOIN custom_field_group g ON g.environment_id = $1 AND g.id = $3
          WHERE f.environment_id = $1 AND f.id = $2 AND g.model_id <> f.model_id`,
        [id, input.groupId],
      );
      if (other) {
        throw new ValidationError([{ path: 'groupId', message: 'the group belongs to another model', code: 'invalid_value' }]);
      }
    }
    await sql.update('custom_field', id, {
      ...columnsOf({
        label: input.label,
        groupId: input.groupId,
        position: input.position,
        filterable: input.filterable,
        searchable: input.searchable,
        mandatory: input.mandatory,
      }),
      updated_at: now,
    });
  },
};
