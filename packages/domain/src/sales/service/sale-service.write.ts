import { SCOPED_ENVIRONMENT } from '@bo/db';
import { resolveBillable } from '../../projects/service/billable.js';
import type { InvoiceMethod, SubscriptionCycle } from '../../projects/service/invoice-method.js';
import type { EntityCreate, EntityTransaction, EntityUpdate, ReferenceCheck, TargetEntity } from '../../shared/entity/index.js';
import { ValidationError, type Violation } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { costTypeOfSale, hourTypeOfSale, revenueGroup, vatClass } from '../lookups/lookups.entity.js';
import { sale } from '../sale.entity.js';
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

function columns(input: UpdateSaleServiceInput, method: InvoiceMethod, cycle: SubscriptionCycle | null) {
  return {
    name: input.name,
    defaultServiceId: input.defaultServiceId,
    explanation: input.explanation,
    invoiceMethod: method,
    subscriptionCycle: cycle,
    amount: input.amount,
    price: input.price,
    trackHours: input.trackHours,
    trackCost: input.trackCost,
    vatClassId: input.vatClassId,
    revenueGroupId: input.revenueGroupId,
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

async function writeHourTypes(
  tx: EntityTransaction,
  serviceId: string,
  method: InvoiceMethod,
  lines: UpdateSaleServiceInput['hourTypes'],
  now: Date,
) {
  if (lines === undefined) return;
  const billable = billableLines(method, 'hourTypes', lines);
  await tx.saleServiceHourType.deleteMany({ where: { saleServiceId: serviceId } });
  if (!lines.length) return;
  await tx.saleServiceHourType.createMany({
    data: lines.map((l, position) => ({
      id: newEntityId('salehourtype'),
      environmentId: SCOPED_ENVIRONMENT,
      saleServiceId: serviceId,
      hourTypeId: l.hourTypeId,
      budgetedAmount: l.budgetedAmount ?? null,
      tariff: l.tariff ?? null,
      billable: billable[position] ?? false,
      position,
      createdAt: now,
      updatedAt: now,
    })),
  });
}

/** Replaces the cost types of a service; a line without a tariff takes the cost type's. */
async function writeCostTypes(
  tx: EntityTransaction,
  serviceId: string,
  method: InvoiceMethod,
  lines: UpdateSaleServiceInput['costTypes'],
  now: Date,
) {
  if (lines === undefined) return;
  const billable = billableLines(method, 'costTypes', lines);
  await tx.saleServiceCostType.deleteMany({ where: { saleServiceId: serviceId } });
  if (!lines.length) return;
  const types = new Map(
    (await tx.costType.findMany({ where: { id: { in: lines.map((l) => l.costTypeId) } } })).map((c) => [c.id, c]),
  );
  await tx.saleServiceCostType.createMany({
    data: lines.map((l, position) => ({
      id: newEntityId('salecosttype'),
      environmentId: SCOPED_ENVIRONMENT,
      saleServiceId: serviceId,
      costTypeId: l.costTypeId,
      budgetedAmount: l.budgetedAmount ?? null,
      tariff: l.tariff !== undefined ? l.tariff : (types.get(l.costTypeId)?.tariff ?? null),
      purchaseTariff: l.purchaseTariff ?? null,
      billable: billable[position] ?? false,
      position,
      createdAt: now,
      updatedAt: now,
    })),
  });
}

export const createSaleService: EntityCreate<CreateSaleServiceInput> = {
  references: saleServiceReferences,
  async run({ tx, now }, input) {
    const method = input.invoiceMethod ?? 'fixed_price';
    const id = newEntityId('saleservice');
    // is_active (2025-01) becomes true only once the service and its hour types are written
    await tx.saleService.create({
      data: {
        ...columns(input, method, cycleOf(method, input.subscriptionCycle, null)),
        id,
        environmentId: SCOPED_ENVIRONMENT,
        saleId: input.saleId,
        name: input.name,
        isActive: false,
        createdAt: now,
        updatedAt: now,
      },
    });
    await writeHourTypes(tx, id, method, input.hourTypes ?? [], now);
    await writeCostTypes(tx, id, method, input.costTypes ?? [], now);
    await tx.saleService.update({ where: { id }, data: { isActive: true } });
    return id;
  },
};

export const updateSaleService: EntityUpdate<UpdateSaleServiceInput> = {
  references: saleServiceReferences,
  async run({ tx, now }, id, input) {
    const current = await tx.saleService.findFirstOrThrow({ where: { id } });
    const method = input.invoiceMethod ?? (current.invoiceMethod as InvoiceMethod);
    await tx.saleService.update({
      where: { id },
      data: { ...columns(input, method, cycleOf(method, input.subscriptionCycle, current.subscriptionCycle)), updatedAt: now },
    });
    // a new invoice method re-applies the billable rule to the kept hour and cost types
    const methodChanged = input.invoiceMethod !== undefined && input.invoiceMethod !== current.invoiceMethod;
    const num = (d: { toNumber(): number } | null) => (d === null ? null : d.toNumber());
    let lines = input.hourTypes;
    if (lines === undefined && methodChanged) {
      const kept = await tx.saleServiceHourType.findMany({ where: { saleServiceId: id }, orderBy: { position: 'asc' } });
      lines = kept.map((k) => ({
        hourTypeId: k.hourTypeId,
        budgetedAmount: num(k.budgetedAmount),
        tariff: num(k.tariff),
        billable: k.billable,
      }));
    }
    await writeHourTypes(tx, id, method, lines, now);
    let costLines = input.costTypes;
    if (costLines === undefined && methodChanged) {
      const kept = await tx.saleServiceCostType.findMany({ where: { saleServiceId: id }, orderBy: { position: 'asc' } });
      costLines = kept.map((k) => ({
        costTypeId: k.costTypeId,
        budgetedAmount: num(k.budgetedAmount),
        tariff: num(k.tariff),
        purchaseTariff: num(k.purchaseTariff),
        billable: k.billable,
      }));
    }
    await writeCostTypes(tx, id, method, costLines, now);
  },
};

/** The values of a stored cost type line, as a copy of it is written (on a sales or a project service). */
export function costLineCopy(c: {
  costTypeId: string;
  budgetedAmount: { toString(): string } | null;
  tariff: { toString(): string } | null;
  purchaseTariff: { toString(): string } | null;
  purchaseMargin: { toString(): string } | null;
  billable: boolean;
  position: number;
}) {
  const text = (d: { toString(): string } | null) => d?.toString() ?? null;
  return {
    environmentId: SCOPED_ENVIRONMENT,
    costTypeId: c.costTypeId,
    budgetedAmount: text(c.budgetedAmount),
    tariff: text(c.tariff),
    purchaseTariff: text(c.purchaseTariff),
    purchaseMargin: text(c.purchaseMargin),
    billable: c.billable,
    position: c.position,
  };
}

/** A copy of a sales service in the same sale, with its hour types; the copy is a new service. */
export async function copySaleService(tx: EntityTransaction, sourceId: string, saleId: string | null, now: Date) {
  const source = await tx.saleService.findFirstOrThrow({
    where: { id: sourceId },
    include: { hourTypes: true, costTypes: true },
  });
  const id = newEntityId('saleservice');
  const { id: _i, environmentId: _e, createdAt: _c, updatedAt: _u, hourTypes, costTypes, ...rest } = source;
  await tx.saleService.create({
    data: {
      ...rest,
      amount: rest.amount?.toString() ?? null,
      price: rest.price?.toString() ?? null,
      id,
      saleId: saleId ?? source.saleId,
      environmentId: SCOPED_ENVIRONMENT,
      createdAt: now,
      updatedAt: now,
    },
  });
  if (hourTypes.length) {
    await tx.saleServiceHourType.createMany({
      data: hourTypes.map((h) => ({
        id: newEntityId('salehourtype'),
        environmentId: SCOPED_ENVIRONMENT,
        saleServiceId: id,
        hourTypeId: h.hourTypeId,
        budgetedAmount: h.budgetedAmount?.toString() ?? null,
        tariff: h.tariff?.toString() ?? null,
        billable: h.billable,
        position: h.position,
        createdAt: now,
        updatedAt: now,
      })),
    });
  }
  if (costTypes.length) {
    await tx.saleServiceCostType.createMany({
      data: costTypes.map((c) => ({
        ...costLineCopy(c),
        id: newEntityId('salecosttype'),
        saleServiceId: id,
        createdAt: now,
        updatedAt: now,
      })),
    });
  }
  return id;
}
