import type { TenantReader } from '@bo/db';
import { resolveBillable } from '../../projects/service/billable.js';
import type { InvoiceMethod, SubscriptionCycle } from '../../projects/service/invoice-method.js';
import type { EntityCreate, EntityUpdate, ReferenceCheck, TargetEntity } from '../../shared/entity/index.js';
import { ValidationError, type Violation } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { costTypeOfSale, hourTypeOfSale, revenueGroup, vatClass } from '../lookups/lookups.entity.js';
import { sale } from '../sale.entity.js';
import { insertRows } from '../sql-writes.js';
import type { CreateSaleServiceInput, UpdateSaleServiceInput } from './sale-service.schema.js';

const defaultService: TargetEntity = { type: 'defaultservice', table: 'default_service', module: 'sales', fields: {} };

export function saleServiceReferences(input: UpdateSaleServiceInput & { saleId?: string }): ReferenceCheck[] {
  return [
    { path: 'saleId', target: sale, id: input.saleId },
    { path: 'defaultServiceId', target: defaultService, id: input.defaultServiceId },
    { path: 'vatClassId', target: vatClass, id: input.vatClassId },
    { path: 'revenueGroupId', target: revenueGroup, id: input.revenueGroupId },
    ...(input.hourTypes ?? []).map((h, n) => ({ path: `hourTypes.${n}.hourTypeId`, target: hourTypeOfSale, id: h.hourTypeId })),
    ...(input.costTypes ?? []).map((c, n) => ({ path: `costTypes.${n}.costTypeId`, target: costTypeOfSale, id: c.costTypeId })),
  ];
}

/** The service's own columns named by a write, by column (left-out fields are undefined: they keep their value). */
function columns(input: UpdateSaleServiceInput, method: InvoiceMethod, cycle: SubscriptionCycle | null): Record<string, unknown> {
  return {
    name: input.name,
    default_service_id: input.defaultServiceId,
    explanation: input.explanation,
    invoice_method: method,
    subscription_cycle: cycle,
    amount: input.amount,
    price: input.price,
    track_hours: input.trackHours,
    track_cost: input.trackCost,
    vat_class_id: input.vatClassId,
    revenue_group_id: input.revenueGroupId,
    position: input.position,
  };
}

/** A subscription is billed per cycle, monthly unless said; other methods have no cycle. */
function cycleOf(method: InvoiceMethod, given: SubscriptionCycle | null | undefined, current: string | null) {
  if (method !== 'subscription') return null;
  return given ?? (current as SubscriptionCycle | null) ?? 'month';
}

/**
 * Replaces the hour types of a service. `billable` follows the invoice method by the
 * one rule project services use (2026-04, projects/service/billable.ts); a sale is
 * never an internal project.
 */
function billableLines(method: InvoiceMethod, path: string, lines: { billable?: boolean | null }[]): boolean[] {
  const violations: Violation[] = [];
  const billable = lines.map((l, n) => {
    const outcome = resolveBillable(method, false, l.billable);
    if (!outcome.ok) violations.push({ path: `${path}.${n}.billable`, message: outcome.message, code: outcome.code });
    return outcome.ok ? outcome.value : false;
  });
  if (violations.length) throw new ValidationError(violations);
  return billable;
}

const HOUR_TYPE_COLUMNS = [
  'id',
  'sale_service_id',
  'hour_type_id',
  'budgeted_amount',
  'tariff',
  'billable',
  'position',
  'created_at',
  'updated_at',
];

/** the service's hour or cost types go, before their new set is written (queued) */
async function deleteLines(sql: TenantReader, table: 'sale_service_hour_type' | 'sale_service_cost_type', serviceId: string) {
  await sql.queue(`DELETE FROM ${table} WHERE environment_id = $1 AND sale_service_id = $2`, [serviceId], { stablePlan: true });
}

/** Replaces the hour types of a service (a new service has none to replace), in one queued statement. */
async function writeHourTypes(
  sql: TenantReader,
  serviceId: string,
  method: InvoiceMethod,
  lines: UpdateSaleServiceInput['hourTypes'],
  now: Date,
  replace: boolean,
) {
  if (lines === undefined) return;
  const billable = billableLines(method, 'hourTypes', lines);
  if (replace) await deleteLines(sql, 'sale_service_hour_type', serviceId);
  await insertRows(
    sql,
    'sale_service_hour_type',
    HOUR_TYPE_COLUMNS,
    lines.map((l, position) => [
      newEntityId('salehourtype'),
      serviceId,
      l.hourTypeId,
      l.budgetedAmount ?? null,
      l.tariff ?? null,
      billable[position] ?? false,
      position,
      now,
      now,
    ]),
  );
}

/**
 * Replaces the cost types of a service; a line without a tariff takes the cost type's, which the
 * inserting statement reads itself (no round trip of its own).
 */
async function writeCostTypes(
  sql: TenantReader,
  serviceId: string,
  method: InvoiceMethod,
  lines: UpdateSaleServiceInput['costTypes'],
  now: Date,
  replace: boolean,
) {
  if (lines === undefined) return;
  const billable = billableLines(method, 'costTypes', lines);
  if (replace) await deleteLines(sql, 'sale_service_cost_type', serviceId);
  if (!lines.length) return;
  await sql.queue(
    `INSERT INTO sale_service_cost_type (environment_id, id, sale_service_id, cost_type_id, budgeted_amount, tariff,
                                         purchase_tariff, billable, position, created_at, updated_at)
     SELECT $1, l.id, $2, l.cost_type_id, l.budgeted_amount,
            CASE WHEN l.tariff_given THEN l.tariff ELSE c.tariff END,
            l.purchase_tariff, l.billable, (l.n - 1)::int, $10::timestamptz, $10::timestamptz
       FROM unnest($3::text[], $4::text[], $5::numeric[], $6::boolean[], $7::numeric[], $8::numeric[], $9::boolean[])
              WITH ORDINALITY AS l(id, cost_type_id, budgeted_amount, tariff_given, tariff, purchase_tariff, billable, n)
       LEFT JOIN cost_type c ON c.environment_id = $1 AND c.id = l.cost_type_id`,
    [
      serviceId,
      lines.map(() => newEntityId('salecosttype')),
      lines.map((l) => l.costTypeId),
      lines.map((l) => l.budgetedAmount ?? null),
      lines.map((l) => l.tariff !== undefined),
      lines.map((l) => l.tariff ?? null),
      lines.map((l) => l.purchaseTariff ?? null),
      billable,
      now,
    ],
  );
}

export const createSaleService: EntityCreate<CreateSaleServiceInput> = {
  references: saleServiceReferences,
  // through the transaction's reader in a transaction of our own: the row, its hour and cost types
  // and its event are queued together (one round trip)
  async run({ sql, now }, input) {
    const method = input.invoiceMethod ?? 'fixed_price';
    const id = newEntityId('saleservice');
    // is_active (2025-01) says the service and its hour types were written completely: they are
    // written in this one transaction, so nobody ever sees the service without them
    await sql.insert('sale_service', {
      ...columns(input, method, cycleOf(method, input.subscriptionCycle, null)),
      id,
      sale_id: input.saleId,
      is_active: true,
      created_at: now,
      updated_at: now,
    });
    await writeHourTypes(sql, id, method, input.hourTypes ?? [], now, false);
    await writeCostTypes(sql, id, method, input.costTypes ?? [], now, false);
    return id;
  },
};

interface KeptLines {
  invoiceMethod: string;
  subscriptionCycle: string | null;
  hourTypes: { hourTypeId: string; budgetedAmount: number | null; tariff: number | null; billable: boolean }[];
  costTypes: {
    costTypeId: string;
    budgetedAmount: number | null;
    tariff: number | null;
    purchaseTariff: number | null;
    billable: boolean;
  }[];
}

export const updateSaleService: EntityUpdate<UpdateSaleServiceInput> = {
  references: saleServiceReferences,
  async run({ sql, now }, id, input) {
    // the row is locked by the generic update; its hour and cost types come along, for a new
    // invoice method to re-apply the billable rule to (in their order)
    const [current] = await sql.read<KeptLines>(
      `SELECT s.invoice_method AS "invoiceMethod", s.subscription_cycle AS "subscriptionCycle",
              coalesce((SELECT json_agg(json_build_object('hourTypeId', h.hour_type_id,
                          'budgetedAmount', h.budgeted_amount::float8, 'tariff', h.tariff::float8, 'billable', h.billable)
                          ORDER BY h.position, h.id)
                          FROM sale_service_hour_type h WHERE h.environment_id = $1 AND h.sale_service_id = s.id), '[]') AS "hourTypes",
              coalesce((SELECT json_agg(json_build_object('costTypeId', c.cost_type_id,
                          'budgetedAmount', c.budgeted_amount::float8, 'tariff', c.tariff::float8,
                          'purchaseTariff', c.purchase_tariff::float8, 'billable', c.billable)
                          ORDER BY c.position, c.id)
                          FROM sale_service_cost_type c WHERE c.environment_id = $1 AND c.sale_service_id = s.id), '[]') AS "costTypes"
         FROM sale_service s WHERE s.environment_id = $1 AND s.id = $2`,
      [id],
    );
    if (!current) throw new Error(`sale service ${id} is locked but not found`);
    const method = input.invoiceMethod ?? (current.invoiceMethod as InvoiceMethod);
    await sql.update('sale_service', id, {
      ...columns(input, method, cycleOf(method, input.subscriptionCycle, current.subscriptionCycle)),
      updated_at: now,
    });
    // a new invoice method re-applies the billable rule to the kept hour and cost types
    const methodChanged = input.invoiceMethod !== undefined && input.invoiceMethod !== current.invoiceMethod;
    const lines = input.hourTypes ?? (methodChanged ? current.hourTypes : undefined);
    await writeHourTypes(sql, id, method, lines, now, true);
    const costLines = input.costTypes ?? (methodChanged ? current.costTypes : undefined);
    await writeCostTypes(sql, id, method, costLines, now, true);
  },
};

/** A sale service's hour and cost types as `serviceLinesSql` reads them. */
export interface ServiceLines {
  hourTypes: { hourTypeId: string; budgetedAmount: string | null; tariff: string | null; billable: boolean; position: number }[];
  costTypes: {
    costTypeId: string;
    budgetedAmount: string | null;
    tariff: string | null;
    purchaseTariff: string | null;
    purchaseMargin: string | null;
    billable: boolean;
    position: number;
  }[];
}

/** The hour and cost types of a sale service as JSON, numbers as their exact text (`s` is the service's alias). */
export const serviceLinesSql = (s: string) => `
  coalesce((SELECT json_agg(json_build_object('hourTypeId', h.hour_type_id, 'budgetedAmount', h.budgeted_amount::text,
              'tariff', h.tariff::text, 'billable', h.billable, 'position', h.position) ORDER BY h.position, h.id)
              FROM sale_service_hour_type h WHERE h.environment_id = $1 AND h.sale_service_id = ${s}.id), '[]') AS "hourTypes",
  coalesce((SELECT json_agg(json_build_object('costTypeId', c.cost_type_id, 'budgetedAmount', c.budgeted_amount::text,
              'tariff', c.tariff::text, 'purchaseTariff', c.purchase_tariff::text, 'purchaseMargin', c.purchase_margin::text,
              'billable', c.billable, 'position', c.position) ORDER BY c.position, c.id)
              FROM sale_service_cost_type c WHERE c.environment_id = $1 AND c.sale_service_id = ${s}.id), '[]') AS "costTypes"`;

/** The columns of a stored cost type line as a copy of it is written (on a sales or a project service), after its id and service. */
export const COST_LINE_COLUMNS = [
  'cost_type_id',
  'budgeted_amount',
  'tariff',
  'purchase_tariff',
  'purchase_margin',
  'billable',
  'position',
] as const;

/** The values of a stored cost type line, in the order of COST_LINE_COLUMNS. */
export function costLineCopy(c: ServiceLines['costTypes'][number]): unknown[] {
  return [c.costTypeId, c.budgetedAmount, c.tariff, c.purchaseTariff, c.purchaseMargin, c.billable, c.position];
}

/**
 * A copy of a sales service (in the same sale unless `saleId` names another), with its hour and
 * cost types; the copy is a new, complete service (is_active). The caller holds the source's lock:
 * its lines are read after it, and its own columns are copied by PostgreSQL from the row as stored.
 */
export async function copySaleService(sql: TenantReader, sourceId: string, saleId: string | null, now: Date): Promise<string> {
  const [source] = await sql.read<ServiceLines>(
    `SELECT ${serviceLinesSql('s')} FROM sale_service s WHERE s.environment_id = $1 AND s.id = $2`,
    [sourceId],
  );
  if (!source) throw new Error(`sale service ${sourceId} is locked but not found`);
  const id = newEntityId('saleservice');
  await sql.queue(
    `INSERT INTO sale_service (environment_id, id, sale_id, default_service_id, name, explanation, invoice_method,
                               subscription_cycle, amount, price, track_hours, track_cost, vat_class_id, revenue_group_id,
                               position, is_active, created_at, updated_at)
     SELECT $1, $3, COALESCE($4, s.sale_id), s.default_service_id, s.name, s.explanation, s.invoice_method,
            s.subscription_cycle, s.amount, s.price, s.track_hours, s.track_cost, s.vat_class_id, s.revenue_group_id,
            s.position, true, $5::timestamptz, $5::timestamptz
       FROM sale_service s WHERE s.environment_id = $1 AND s.id = $2`,
    [sourceId, id, saleId, now],
  );
  await insertRows(
    sql,
    'sale_service_hour_type',
    HOUR_TYPE_COLUMNS,
    source.hourTypes.map((h) => [
      newEntityId('salehourtype'),
      id,
      h.hourTypeId,
      h.budgetedAmount,
      h.tariff,
      h.billable,
      h.position,
      now,
      now,
    ]),
  );
  await insertRows(
    sql,
    'sale_service_cost_type',
    ['id', 'sale_service_id', ...COST_LINE_COLUMNS, 'created_at', 'updated_at'],
    source.costTypes.map((c) => [newEntityId('salecosttype'), id, ...costLineCopy(c), now, now]),
  );
  return id;
}
