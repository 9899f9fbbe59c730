import { z } from 'zod';
import { defineEntity, f } from '../../shared/entity/index.js';
import { targets } from '../../shared/entity/targets.js';

/** Hour types carry the id prefix `hourtype:`, the only prefix (with itemtype) a project service line accepts. */
export const HOUR_TYPE_PREFIX = 'hourtype';

/** A kind of hours (work, travel, …) with its default tariff. */
export const hourType = defineEntity({
  type: 'hourtype',
  table: 'hour_type',
  module: 'hours',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: {
    id: f.id(),
    label: f.requiredString(),
    type: f.requiredString(),
    tariff: f.decimal(),
    blocked: f.boolean(),
    color: f.string(),
    vatClassId: f.string({ references: () => targets.vatClass }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type HourType = z.infer<typeof hourType.schema>;

/** How project services and assignments embed an hour type. */
export const hourTypeShape = z.object({
  id: z.string(),
  label: z.string(),
  type: z.string(),
  tariff: z.number().nullable(),
  blocked: z.boolean(),
  color: z.string().nullable(),
  vatClassId: z.string().nullable(),
});
export type EmbeddedHourType = z.infer<typeof hourTypeShape>;
