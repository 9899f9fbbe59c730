import type { EntityCreate } from '../shared/entity/index.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateCustomFieldGroupInput } from './custom-field.schema.js';

/** A group of one model's custom fields; the model (checked to exist first) is named as {id} or by modelId. */
export const createCustomFieldGroup: EntityCreate<CreateCustomFieldGroupInput> = {
  async run({ sql, now }, input) {
    const id = newEntityId('customfieldgroup');
    await sql.insert('custom_field_group', {
      id,
      model_id: (input.model?.id ?? input.modelId) as string,
      name: input.name,
      position: input.position === undefined ? 0 : Number(input.position),
      type: input.type ?? null,
      updated_at: now,
    });
    return id;
  },
};
