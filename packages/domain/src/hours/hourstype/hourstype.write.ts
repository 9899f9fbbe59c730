import type { EntityCreate, EntityUpdate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import { HOUR_TYPE_PREFIX } from './hourstype.entity.js';
import type { CreateHourTypeInput, UpdateHourTypeInput } from './hourstype.schema.js';

/** the stored columns a write names (undefined: left as they are, or to their default) */
function columns(input: UpdateHourTypeInput) {
  return { label: input.label, tariff: input.tariff, blocked: input.blocked, color: input.color, vat_class_id: input.vatClassId };
}

export const createHourType: EntityCreate<CreateHourTypeInput> = {
  // one INSERT queued in a transaction of our own, with the event
  async run({ sql, now }, input) {
    const id = newEntityId(HOUR_TYPE_PREFIX);
    await sql.insert('hour_type', { ...columns(input), id, updated_at: now });
    return id;
  },
};

export const updateHourType: EntityUpdate<UpdateHourTypeInput> = {
  async run({ sql, now }, id, input) {
    await sql.update('hour_type', id, { ...columns(input), updated_at: now });
  },
};
