import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate, EntityUpdate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import { HOUR_TYPE_PREFIX } from './hourstype.entity.js';
import type { CreateHourTypeInput, UpdateHourTypeInput } from './hourstype.schema.js';

function columns(input: UpdateHourTypeInput) {
  return { label: input.label, tariff: input.tariff, blocked: input.blocked, color: input.color, vatClassId: input.vatClassId };
}

export const createHourType: EntityCreate<CreateHourTypeInput> = {
  async run({ tx }, input) {
    const id = newEntityId(HOUR_TYPE_PREFIX);
    await tx.hourType.create({ data: { ...columns(input), label: input.label, id, environmentId: SCOPED_ENVIRONMENT } });
    return id;
  },
};

export const updateHourType: EntityUpdate<UpdateHourTypeInput> = {
  async run({ tx, now }, id, input) {
    await tx.hourType.update({ where: { id }, data: { ...columns(input), updatedAt: now } });
  },
};
