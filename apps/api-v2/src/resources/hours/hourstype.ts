import { createHourTypeInput, updateHourTypeInput } from '@bo/domain/hours/hourstype/hourstype.schema';
import { type EmbeddedHourType, type HourType, hourType } from '@bo/domain/hours/hourstype/hourstype.entity';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names({ vatclass_id: 'vatClassId' });

/** The nested hour type of v2 reads (reference: GetHoursType); the tariff is a string there. */
export function hourTypeV2(h: EmbeddedHourType) {
  return {
    id: h.id,
    type: h.type,
    billable: null,
    vatclass: h.vatClassId ? { id: h.vatClassId, code: null, label: null, percentage: null } : null,
    label: h.label,
    tariff: h.tariff === null ? null : String(h.tariff),
    blocked: h.blocked,
    color: h.color,
  };
}

/** hours/hourstype */
export const hourTypeV2Resource = v2Resource<HourType>({
  path: 'hours/hourstype',
  entity: hourType,
  inputs: { create: createHourTypeInput, update: updateHourTypeInput, remove: true },
  procedures: (c) => c.hours.hourstype,
  names,
  read: (h) => ({ ...hourTypeV2(h), created_at: v2DateTime(h.createdAt), updated_at: v2DateTime(h.updatedAt) }),
});
