import { SCOPED_ENVIRONMENT, type Models, type SqlModel } from '@bo/db';
import { z } from 'zod';
import { v2DateTime, v3DateTime } from '../../shared/format.js';
import { newEntityId } from '../../shared/ids.js';
import { num } from '../../shared/numbers.js';
import type { Db, ResourceDefinition, WriteContext } from '../../shared/resources/definition.js';

/** Hour types carry the id prefix `hourtype:`, the only prefix (with itemtype) a project service line accepts. */
export const HOUR_TYPE_PREFIX = 'hourtype';

export const hourTypeSql: SqlModel = {
  table: 'hour_type',
  fields: {
    id: { column: 'id', type: 'id' },
    label: { column: 'label', type: 'string' },
    type: { column: 'type', type: 'string' },
    tariff: { column: 'tariff', type: 'number' },
    blocked: { column: 'blocked', type: 'boolean' },
    color: { column: 'color', type: 'string' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

/** v2 sends tariffs as strings or numbers (reference: PostHoursType.tariff is a string). */
const tariffInput = z
  .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, 'This value is not a number.')])
  .transform((v) => Number(v))
  .pipe(z.number().min(0).max(1e10))
  .nullable()
  .optional();

const fields = {
  type: z.enum(['Work Type']).optional(),
  vatclass_id: z.string().min(1).nullable().optional(),
  tariff: tariffInput,
  blocked: z.boolean().optional(),
  color: z.string().max(32).nullable().optional(),
};
export const createHourTypeSchema = z.object({ label: z.string().trim().min(1).max(255), ...fields });
export const updateHourTypeSchema = z.object({ label: z.string().trim().min(1).max(255).optional(), ...fields });
type CreateInput = z.infer<typeof createHourTypeSchema>;
type UpdateInput = z.infer<typeof updateHourTypeSchema>;

function columns(input: UpdateInput) {
  return { label: input.label, tariff: input.tariff, blocked: input.blocked, color: input.color, vatClassId: input.vatclass_id };
}

/** The nested hour type of v2 reads (reference: GetHoursType). */
export function hourTypeV2(h: Models.HourTypeModel) {
  return {
    id: h.id,
    type: h.type,
    billable: null,
    vatclass: h.vatClassId ? { id: h.vatClassId, code: null, label: null, percentage: null } : null,
    label: h.label,
    tariff: h.tariff === null ? null : String(num(h.tariff)),
    blocked: h.blocked,
    color: h.color,
  };
}

export const hourTypeResource: ResourceDefinition<Models.HourTypeModel, CreateInput, UpdateInput> = {
  name: 'hours/hourstype',
  entityType: 'hourtype',
  module: 'hours',
  sql: hourTypeSql,
  defaultSort: [{ path: 'label', dir: 'asc' }],
  load: (db: Db, ids: string[]) => db.hourType.findMany({ where: { id: { in: ids } } }),
  views: {
    v2: (h) => ({ ...hourTypeV2(h), created_at: v2DateTime(h.createdAt), updated_at: v2DateTime(h.updatedAt) }),
    v3: (h) => ({
      id: h.id,
      label: h.label,
      type: h.type,
      tariff: num(h.tariff),
      blocked: h.blocked,
      color: h.color,
      createdAt: v3DateTime(h.createdAt),
      updatedAt: v3DateTime(h.updatedAt),
    }),
  },
  create: {
    schema: createHourTypeSchema,
    async run({ tx }: WriteContext, input: CreateInput) {
      const id = newEntityId(HOUR_TYPE_PREFIX);
      await tx.hourType.create({ data: { ...columns(input), label: input.label, id, environmentId: SCOPED_ENVIRONMENT } });
      return id;
    },
  },
  update: {
    schema: updateHourTypeSchema,
    async run({ tx, now }: WriteContext, id: string, input: UpdateInput) {
      await tx.hourType.update({ where: { id }, data: { ...columns(input), updatedAt: now } });
    },
  },
};
