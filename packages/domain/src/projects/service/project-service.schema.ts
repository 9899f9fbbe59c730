import { z } from 'zod';
import { dateInput, money } from '../../shared/numbers.js';
import { INVOICE_METHODS, SUBSCRIPTION_CYCLES } from './invoice-method.js';

/**
 * Write shapes of a project service, in domain terms: the one input every wire
 * maps its names to. Hour type and cost type lines are separate lists; a list left
 * out keeps the service's lines of that kind (contract, 2025-02).
 */
const id = z.string().min(1);
const text = z.string().max(10_000).nullable().optional();
const name = z.string().trim().min(1).max(255);
/** a calendar date: a Date, or `YYYY-MM-DD` (a time part is accepted and dropped) */
const date = z.union([z.date(), dateInput]);

export const hourTypeLineInput = z.object({
  hourTypeId: id,
  tariff: money.nullable().optional(),
  budgetedAmount: money.nullable().optional(),
  billable: z.boolean().nullable().optional(),
});
export const costTypeLineInput = z.object({
  costTypeId: id,
  tariff: money.nullable().optional(),
  purchaseTariff: money.nullable().optional(),
  budgetedAmount: money.nullable().optional(),
  billable: z.boolean().nullable().optional(),
});
export const installmentInput = z.object({
  name,
  percentage: z.number().min(0).max(100).nullable().optional(),
  price: money.nullable().optional(),
  expirationDate: date.nullable().optional(),
});
export type HourTypeLineInput = z.infer<typeof hourTypeLineInput>;
export type CostTypeLineInput = z.infer<typeof costTypeLineInput>;
export type InstallmentInput = z.infer<typeof installmentInput>;

const serviceFields = {
  defaultServiceId: id.nullable().optional(),
  explanation: text,
  /** fixed_price when a new service names none */
  invoiceMethod: z.enum(INVOICE_METHODS).optional(),
  subscriptionCycle: z.enum(SUBSCRIPTION_CYCLES).nullable().optional(),
  amount: money.nullable().optional(),
  price: money.nullable().optional(),
  trackHours: z.boolean().optional(),
  trackCost: z.boolean().optional(),
  startDate: date.nullable().optional(),
  endDate: date.nullable().optional(),
  writeHoursStartDate: date.nullable().optional(),
  writeHoursEndDate: date.nullable().optional(),
  expectedInvoiceDate: date.nullable().optional(),
  vatClassId: id.nullable().optional(),
  revenueGroupId: id.nullable().optional(),
  useInResourcePlanner: z.boolean().optional(),
  invoiceInInstallments: z.boolean().optional(),
  installments: z.array(installmentInput).max(100).optional(),
  hourTypes: z.array(hourTypeLineInput).max(100).optional(),
  costTypes: z.array(costTypeLineInput).max(100).optional(),
};

/** An invoiceable service (fixed price, hours or subscription). */
export const createProjectServiceInput = z.object({ projectId: id, name, ...serviceFields });
export const updateProjectServiceInput = z.object({ name: name.optional(), ...serviceFields });
export type CreateProjectServiceInput = z.infer<typeof createProjectServiceInput>;
export type UpdateProjectServiceInput = z.infer<typeof updateProjectServiceInput>;

/** The work of winning a project: hour types only, never billed. */
const acquisitionFields = {
  defaultServiceId: id.nullable().optional(),
  explanation: text,
  startDate: date.nullable().optional(),
  endDate: date.nullable().optional(),
  hourTypes: z
    .array(hourTypeLineInput.omit({ billable: true }))
    .max(100)
    .optional(),
};
export const createAcquisitionServiceInput = z.object({ projectId: id, name, ...acquisitionFields });
export const updateAcquisitionServiceInput = z.object({ name: name.optional(), ...acquisitionFields });
export type CreateAcquisitionServiceInput = z.infer<typeof createAcquisitionServiceInput>;
export type UpdateAcquisitionServiceInput = z.infer<typeof updateAcquisitionServiceInput>;

/** An advance (prepayment) invoiced as one fixed price. */
const advanceFields = { explanation: text, expectedInvoiceDate: date.nullable().optional() };
export const createAdvanceServiceInput = z.object({
  projectId: id,
  name: name.optional(),
  price: z.number().finite().positive().max(1e10),
  ...advanceFields,
});
export const updateAdvanceServiceInput = z.object({
  name: name.optional(),
  price: z.number().finite().positive().max(1e10).optional(),
  ...advanceFields,
});
export type CreateAdvanceServiceInput = z.infer<typeof createAdvanceServiceInput>;
export type UpdateAdvanceServiceInput = z.infer<typeof updateAdvanceServiceInput>;

/** The configuration a new service would get from a default service on a project. */
export const buildProjectServiceInput = z.object({ projectId: id, defaultServiceId: id });
export type BuildProjectServiceInput = z.infer<typeof buildProjectServiceInput>;

/** A copy of a service; a new name may be given. */
export const duplicateProjectServiceInput = z.object({ name: name.optional() });
export type DuplicateProjectServiceInput = z.infer<typeof duplicateProjectServiceInput>;
