import type { EntityCreate } from '../shared/entity/index.js';
import { ConflictError, ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateCustomFieldInput } from './custom-field.schema.js';

/** Defines a custom field of one model; its group (checked to exist first) must be of that model. */
export function createCustomField(modelKey: string): EntityCreate<CreateCustomFieldInput> {
  return {
    async run({ sql, now }, input) {
      // the model, the type (by id or by its type), the group's model and whether the name is taken: one read
      const [found] = await sql.read<{
        model_id: string | null;
        type_id: string | null;
        group_model_id: string | null;
        taken: boolean;
      }>(
        `SELECT (SELECT id FROM custom_field_model WHERE environment_id = $1 AND key = $2) AS model_id,
                (SELECT id FROM custom_field_type WHERE environment_id = $1 AND (id = $3 OR type = $3) LIMIT 1) AS type_id,
                (SELECT model_id FROM custom_field_group WHERE environment_id = $1 AND id = $4) AS group_model_id,
                EXISTS (SELECT 1 FROM custom_field WHERE environment_id = $1 AND model_key = $2 AND name = $5) AS taken`,
        [modelKey, input.type, input.groupId ?? null, input.name],
      );
      const modelId = found?.model_id;
      if (!modelId) throw new ValidationError([{ path: '', message: `no custom-field model ${modelKey}`, code: 'not_found' }]);
      const typeId = found.type_id;
      if (!typeId)
        throw new ValidationError([{ path: 'type', message: `no custom-field type ${input.type}`, code: 'not_found' }]);
      if (input.groupId && found.group_model_id !== null && found.group_model_id !== modelId) {
        throw new ValidationError([{ path: 'groupId', message: 'the group belongs to another model', code: 'invalid_value' }]);
      }
      if (found.taken) throw new ConflictError(`a ${modelKey} custom field named "${input.name}" exists already`);
      const id = newEntityId('customfield');
      await sql.insert('custom_field', {
        id,
        model_id: modelId,
        model_key: modelKey,
        type_id: typeId,
        group_id: input.groupId ?? null,
        name: input.name,
        label: input.label,
        position: input.position ?? 0,
        filterable: input.filterable ?? true,
        searchable: input.searchable ?? true,
        mandatory: input.mandatory ?? false,
        updated_at: now,
      });
      return id;
    },
  };
}
