import { z } from 'zod';
import { INVOICE_METHODS, SUBSCRIPTION_CYCLES } from '../../projects/service/invoice-method.js';
import { costTypeLineInput } from '../../projects/service/project-service.schema.js';

/** Write shape of a sales service, in domain terms (reference: PostSalesService). */
const id = z.string().min(1).max(255);
const amount = z.number().finite().min(0).max(1e10);

/**
 * Fields the 2021 change replaced (vat_code, vat_description by the VAT class): refused
 * with a value, so a client learns the new name instead of losing the value.
 */
const replaced = (what: string, by: string) => z.null({ error: `${what} was replaced by ${by} (2021)` }).optional();

export const hourTypeLineInput = z.object({
  hourTypeId: id,
  budgetedAmount: amount.nullable().optional(),
  tariff: amount.nullable().optional(),
  /** follows the invoice method (2026-04): see projects/service/billable.ts */
  billable: z.boolean().nullable().optional(),
});

const fields = {
  defaultServiceId: id.nullable().optional(),
  explanation: z.string().max(10_000).nullable().optional(),
  invoiceMethod: z.enum(INVOICE_METHODS).optional(),
  subscriptionCycle: z.enum(SUBSCRIPTION_CYCLES).nullable().optional(),
  amount: amount.nullable().optional(),
  price: z.number().finite().min(-1e10).max(1e10).nullable().optional(),
  trackHours: z.boolean().optional(),
  trackCost: z.boolean().optional(),
  vatClassId: id.nullable().optional(),
  revenueGroupId: id.nullable().optional(),
  position: z.number().int().min(0).max(100_000).optional(),
  hourTypes: z.array(hourTypeLineInput).max(100).optional(),
  /** the same lines as a project service's cost types */
  costTypes: z.array(costTypeLineInput).max(100).optional(),
  vatCode: replaced('vat_code', 'vat_class_id'),
  vatDescription: replaced('vat_description', 'vat_class_id'),
};

/**
 * `vatClass: {id}` (v2 `vat_class: {id}`, the shape a read shows) names the same reference as
 * `vatClassId`, and is checked as it: dropped silently, a client writing back what it read would
 * never learn its VAT class was not stored (issue 28, section 3).
 */
const vatClassAsId = (v: unknown): unknown => {
  if (!v || typeof v !== 'object' || Array.isArray(v) || !('vatClass' in v)) return v;
  const { vatClass, ...rest } = v as Record<string, unknown>;
  if (rest.vatClassId !== undefined) return rest;
  const given = vatClass === null ? null : (vatClass as { id?: unknown } | undefined)?.id;
  return { ...rest, vatClassId: given ?? vatClass };
};

export const createSaleServiceInput = z.preprocess(
  vatClassAsId,
  z.object({
    saleId: id,
    name: z.string().trim().min(1).max(255),
    ...fields,
  }),
);
export const updateSaleServiceInput = z.preprocess(
  vatClassAsId,
  z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields }),
);
export type CreateSaleServiceInput = z.infer<typeof createSaleServiceInput>;
export type UpdateSaleServiceInput = z.infer<typeof updateSaleServiceInput>;
