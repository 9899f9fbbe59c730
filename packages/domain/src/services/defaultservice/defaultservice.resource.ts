import { SCOPED_ENVIRONMENT, type Models, type SqlModel } from '@bo/db';
import { z } from 'zod';
import { COST_TYPE_PREFIX } from '../../costs/coststype/coststype.resource.js';
import { HOUR_TYPE_PREFIX } from '../../hours/hourstype/hourstype.resource.js';
import { invoiceMethodFromV2, invoiceMethodToV2, V2_INVOICE_METHODS } from '../../projects/service/invoice-method.js';
import { v2DateTime, v3DateTime } from '../../shared/format.js';
import { newEntityId } from '../../shared/ids.js';
import { money, num } from '../../shared/numbers.js';
import { assertReferencesExist } from '../../shared/references.js';
import type { Db, ResourceDefinition, WriteContext } from '../../shared/resources/definition.js';

export const defaultServiceSql: SqlModel = {
  table: 'default_service',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    price: { column: 'price', type: 'number' },
    price_editable: { column: 'price_editable', type: 'boolean' },
    vat_class_id: { column: 'vat_class_id', type: 'id' },
    revenue_group_id: { column: 'revenue_group_id', type: 'id' },
    my_organization_profile_id: { column: 'my_organization_profile_id', type: 'id' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

const include = {
  hourTypes: { include: { hourType: true }, orderBy: { position: 'asc' } },
  costTypes: { include: { costType: true }, orderBy: { position: 'asc' } },
} as const;

export type DefaultServiceRow = Models.DefaultServiceModel & {
  hourTypes: (Models.DefaultServiceHourTypeModel & { hourType: Models.HourTypeModel })[];
  costTypes: (Models.DefaultServiceCostTypeModel & { costType: Models.CostTypeModel })[];
};

export function loadDefaultServices(db: Db, ids: string[]): Promise<DefaultServiceRow[]> {
  return db.defaultService.findMany({ where: { id: { in: ids } }, include });
}

/**
 * Write shape: the reference's PostDefaultService plus what a project service
 * is built from (invoice method, tracking, hour and cost types with tariffs).
 */
const text = z.string().max(10_000).nullable().optional();
const fields = {
  vat_class_id: z.string().min(1).nullable().optional(),
  revenue_group_id: z.string().min(1).nullable().optional(),
  my_organization_profile_id: z.string().min(1).nullable().optional(),
  price_editable: z.boolean().optional(),
  price: money.nullable().optional(),
  explanation: text,
  invoice_method: z.enum(V2_INVOICE_METHODS).optional(),
  track_hours: z.boolean().optional(),
  track_cost: z.boolean().optional(),
  hour_types: z
    .array(
      z.object({
        hourtype_id: z.string().startsWith(`${HOUR_TYPE_PREFIX}:`, 'Only hourtype ids are accepted.'),
        tariff: money.nullable().optional(),
        budgeted_amount: money.nullable().optional(),
      }),
    )
    .max(100)
    .optional(),
  cost_types: z
    .array(
      z.object({
        costtype_id: z.string().startsWith(`${COST_TYPE_PREFIX}:`, 'Only itemtype ids are accepted.'),
        tariff: money.nullable().optional(),
        purchase_tariff: money.nullable().optional(),
        budgeted_amount: money.nullable().optional(),
      }),
    )
    .max(100)
    .optional(),
};
export const createDefaultServiceSchema = z.object({ name: z.string().trim().min(1).max(255), ...fields });
export const updateDefaultServiceSchema = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
type CreateInput = z.infer<typeof createDefaultServiceSchema>;
type UpdateInput = z.infer<typeof updateDefaultServiceSchema>;

async function write({ ctx, tx, now }: WriteContext, id: string | null, input: UpdateInput): Promise<string> {
  await assertReferencesExist(tx, ctx.principal.environmentId, [
    ...(input.hour_types ?? []).map((h, i) => ({ path: `hour_types.${i}.hourtype_id`, table: 'hour_type', id: h.hourtype_id })),
    ...(input.cost_types ?? []).map((c, i) => ({ path: `cost_types.${i}.costtype_id`, table: 'cost_type', id: c.costtype_id })),
  ]);
  const data = {
    name: input.name,
    explanation: input.explanation,
    price: input.price,
    priceEditable: input.price_editable,
    invoiceMethod: input.invoice_method ? invoiceMethodFromV2(input.invoice_method) : undefined,
    trackHours: input.track_hours,
    trackCost: input.track_cost,
    vatClassId: input.vat_class_id,
    revenueGroupId: input.revenue_group_id,
    myOrganizationProfileId: input.my_organization_profile_id,
  };
  const serviceId = id ?? newEntityId('defaultservice');
  if (id) await tx.defaultService.update({ where: { id }, data: { ...data, updatedAt: now } });
  else
    await tx.defaultService.create({
      data: { ...data, name: input.name ?? '', id: serviceId, environmentId: SCOPED_ENVIRONMENT },
    });
  if (input.hour_types) {
    await tx.defaultServiceHourType.deleteMany({ where: { defaultServiceId: serviceId } });
    await tx.defaultServiceHourType.createMany({
      data: input.hour_types.map((h, position) => ({
        id: newEntityId('defaultservicehourtype'),
        environmentId: SCOPED_ENVIRONMENT,
        defaultServiceId: serviceId,
        hourTypeId: h.hourtype_id,
        tariff: h.tariff ?? null,
        budgetedAmount: h.budgeted_amount ?? null,
        position,
      })),
    });
  }
  if (input.cost_types) {
    await tx.defaultServiceCostType.deleteMany({ where: { defaultServiceId: serviceId } });
    await tx.defaultServiceCostType.createMany({
      data: input.cost_types.map((c, position) => ({
        id: newEntityId('defaultservicecosttype'),
        environmentId: SCOPED_ENVIRONMENT,
        defaultServiceId: serviceId,
        costTypeId: c.costtype_id,
        tariff: c.tariff ?? null,
        purchaseTariff: c.purchase_tariff ?? null,
        budgetedAmount: c.budgeted_amount ?? null,
        position,
      })),
    });
  }
  return serviceId;
}

const ref = (id: string | null) => (id ? { id, label: null } : null);

export const defaultServiceResource: ResourceDefinition<DefaultServiceRow, CreateInput, UpdateInput> = {
  name: 'services/defaultservice',
  entityType: 'defaultservice',
  module: 'projects',
  sql: defaultServiceSql,
  defaultSort: [{ path: 'name', dir: 'asc' }],
  load: loadDefaultServices,
  views: {
    v2: (d) => ({
      id: d.id,
      vat_class: d.vatClassId ? { id: d.vatClassId, code: null, label: null, percentage: null } : null,
      revenue_group: ref(d.revenueGroupId),
      my_organization_profile_id: d.myOrganizationProfileId,
      name: d.name,
      explanation: d.explanation,
      price_editable: d.priceEditable,
      price: num(d.price),
      invoice_method: invoiceMethodToV2(d.invoiceMethod),
      track_hours: d.trackHours,
      track_cost: d.trackCost,
      hour_types: d.hourTypes.map((h) => ({
        hourtype_id: h.hourTypeId,
        label: h.hourType.label,
        tariff: num(h.tariff),
        budgeted_amount: num(h.budgetedAmount),
      })),
      cost_types: d.costTypes.map((c) => ({
        costtype_id: c.costTypeId,
        label: c.costType.label,
        tariff: num(c.tariff),
        purchase_tariff: num(c.purchaseTariff),
        budgeted_amount: num(c.budgetedAmount),
      })),
      created_at: v2DateTime(d.createdAt),
      updated_at: v2DateTime(d.updatedAt),
      modified: v2DateTime(d.updatedAt),
    }),
    v3: (d) => ({
      id: d.id,
      name: d.name,
      explanation: d.explanation,
      price: num(d.price),
      invoiceMethod: d.invoiceMethod,
      vatClassId: d.vatClassId,
      revenueGroupId: d.revenueGroupId,
      createdAt: v3DateTime(d.createdAt),
      updatedAt: v3DateTime(d.updatedAt),
    }),
  },
  create: { schema: createDefaultServiceSchema, run: (w, input) => write(w, null, input) },
  update: {
    schema: updateDefaultServiceSchema,
    async run(w, id, input) {
      await write(w, id, input);
    },
  },
};
