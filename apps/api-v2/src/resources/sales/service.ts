import { invoiceMethodToV2, subscriptionCycleToV2 } from '../projects/invoice-method.js';
import { costTypeLineV2, v2ServiceInput } from '../projects/service.js';
import type { SaleService } from '@bo/domain/sales/service/sale-service.entity';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

/** v2 names of sales/service that are not the snake_case of the domain's */
const names = v2Names({ sales_id: 'saleId', hourtype_id: 'hourTypeId', hourstype: 'hourType' });

type VatClass = NonNullable<SaleService['vatClass']>;

/** reference: VatClass (the percentage as a number) */
export function vatClassV2(v: VatClass | null): Record<string, unknown> | null {
  return v ? { id: v.id, code: v.code, label: v.label, percentage: Number(v.percentage) } : null;
}

/**
 * sales/service read (reference: GetSalesService) with track_hours, track_cost and
 * revenue_group_id (2026-01), is_active (2025-01), explanation (2025-05) and vat_class
 * in place of vat_code and vat_description (2021).
 */
export function saleServiceV2(s: SaleService): Record<string, unknown> {
  return {
    id: s.id,
    invoice_date: null,
    hour_types: s.hourTypes.map((h) => ({
      id: h.id,
      hourstype: h.hourType
        ? {
            id: h.hourType.id,
            type: h.hourType.type,
            billable: null,
            vatclass: vatClassV2(h.hourType.vatClass),
            label: h.hourType.label,
            tariff: h.hourType.tariff === null ? null : String(h.hourType.tariff),
            blocked: h.hourType.blocked,
            color: h.hourType.color,
          }
        : null,
      budgeted_amount: h.budgetedAmount,
      tariff: h.tariff,
      billable: h.billable,
    })),
    cost_types: s.costTypes.map(costTypeLineV2),
    subscription_cycle: subscriptionCycleToV2(s.subscriptionCycle),
    track_cost: s.trackCost,
    vat_class: vatClassV2(s.vatClass),
    created_at: v2DateTime(s.createdAt),
    updated_at: v2DateTime(s.updatedAt),
    sales_id: s.saleId,
    default_service_id: s.defaultServiceId,
    name: s.name,
    invoice_method: invoiceMethodToV2(s.invoiceMethod),
    amount: s.amount,
    price: s.price,
    show_itemtype: null,
    total: s.total,
    position: s.position,
    explanation: s.explanation,
    track_hours: s.trackHours,
    revenue_group_id: s.revenueGroup?.id ?? null,
    is_active: s.isActive,
  };
}

/** sales/service: CRUD and POST /{id}/duplicate. */
export const saleServiceV2Resource = v2Resource<SaleService>({
  path: 'sales/service',
  procedures: (c) => c.sales.service,
  names,
  input: v2ServiceInput(names),
  read: saleServiceV2,
  actions: [{ name: 'duplicate', method: 'POST', call: (c) => c.sales.service.duplicate }],
  // a fresh environment has no sales services: tests/sales-full.test.ts checks the shape
  conformance: false,
});
