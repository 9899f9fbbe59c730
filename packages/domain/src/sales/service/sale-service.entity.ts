import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { costTypeShape } from '../../costs/coststype/coststype.entity.js';
import { serviceCostTypeShape } from '../../projects/service/project-service.shapes.js';
import { costTypeOfSale, hourTypeOfSale, revenueGroup, vatClass, vatClassShape } from '../lookups/lookups.entity.js';
import { targets } from '../../shared/entity/targets.js';

const hourTypeShape = z.object({
  id: z.string(),
  label: z.string(),
  type: z.string(),
  tariff: z.number().nullable(),
  blocked: z.boolean(),
  color: z.string().nullable(),
  vatClass: vatClassShape.nullable(),
});

/** An hour type on a sales service, with its budget, tariff and whether it is billable (2026-04 rule). */
export const saleServiceHourType = defineEntity({
  type: 'salehourtype',
  table: 'sale_service_hour_type',
  module: 'sales',
  fields: {
    id: f.id(),
    hourType: f.ref((): TargetEntity => hourTypeOfSale, hourTypeShape, { column: 'hour_type_id' }),
    budgetedAmount: f.decimal(),
    tariff: f.decimal(),
    billable: f.boolean(),
    position: f.requiredInteger(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

/** A cost type on a sales service (reference GetSalesServiceCostType), billable by the same 2026-04 rule. */
export const saleServiceCostType = defineEntity({
  type: 'salecosttype',
  table: 'sale_service_cost_type',
  module: 'sales',
  fields: {
    id: f.id(),
    costType: f.ref((): TargetEntity => costTypeOfSale, costTypeShape, { column: 'cost_type_id' }),
    budgetedAmount: f.decimal(),
    tariff: f.decimal(),
    purchaseTariff: f.decimal(),
    purchaseMargin: f.decimal(),
    billable: f.boolean(),
    position: f.requiredInteger(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

/** A service offered in a sale: what the sale's quotes price and a conversion turns into a project service. */
export const saleService = defineEntity({
  type: 'saleservice',
  table: 'sale_service',
  module: 'sales',
  nameField: 'name',
  defaultSort: [
    { path: 'position', dir: 'asc' },
    { path: 'createdAt', dir: 'asc' },
  ],
  fields: {
    id: f.id(),
    saleId: f.requiredString({ references: () => targets.sale, writable: false }),
    defaultServiceId: f.string({ references: () => targets.defaultService }),
    name: f.requiredString(),
    /** 2025-05 */
    explanation: f.string(),
    /** fixed_price, time_and_expenses or subscription */
    invoiceMethod: f.requiredString(),
    subscriptionCycle: f.string(),
    amount: f.decimal(),
    price: f.decimal(),
    /** amount × price, rounded half up to cents, as exact decimal text */
    total: f.computed('string', z.string().nullable(), (t) => `round(${t}.amount * ${t}.price, 2)::text`),
    /** 2026-01 */
    trackHours: f.boolean(),
    trackCost: f.boolean(),
    /** 2021: the VAT class replaces the VAT code and description */
    vatClass: f.ref((): TargetEntity => vatClass, vatClassShape, { column: 'vat_class_id' }),
    revenueGroup: f.ref((): TargetEntity => revenueGroup, z.object({ id: z.string(), label: z.string() }), {
      column: 'revenue_group_id',
    }),
    position: f.requiredInteger(),
    /** 2025-01: whether the service was created completely */
    isActive: f.boolean(),
    hourTypes: f.many((): TargetEntity => saleServiceHourType, saleServiceHourTypeShape(), {
      remote: 'sale_service_id',
      orderBy: (h) => `${h}.position, ${h}.id`,
    }),
    costTypes: f.many((): TargetEntity => saleServiceCostType, serviceCostTypeShape, {
      remote: 'sale_service_id',
      orderBy: (c) => `${c}.position, ${c}.id`,
    }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type SaleService = z.infer<typeof saleService.schema>;

function saleServiceHourTypeShape() {
  return z.object({
    id: z.string(),
    hourType: hourTypeShape.nullable(),
    budgetedAmount: z.number().nullable(),
    tariff: z.number().nullable(),
    billable: z.boolean(),
  });
}
