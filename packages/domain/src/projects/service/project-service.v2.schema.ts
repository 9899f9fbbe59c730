import { z } from 'zod';
import { dateInput, money } from '../../shared/numbers.js';
import { invoiceMethodFromV2, subscriptionCycleFromV2, V2_INVOICE_METHODS, V2_SUBSCRIPTION_CYCLES } from './invoice-method.js';
import type { ProjectServiceWrite, TypeLineInput } from './save-project-service.js';

/**
 * v2 write shapes of projects/service (reference: PostProjectService,
 * PutProjectService), snake_case. hour_types holds hour types and cost types;
 * each names its type as `hourtype_id` (the contract) or `hourstype_id` (the reference).
 */
const hourTypeLine = z
  .object({
    hourtype_id: z.string().min(1).optional(),
    hourstype_id: z.string().min(1).optional(),
    budgeted_amount: money.nullable().optional(),
    tariff: money.nullable().optional(),
    purchase_tariff: money.nullable().optional(),
    billable: z.boolean().nullable().optional(),
  })
  .refine((l) => (l.hourtype_id ?? l.hourstype_id) !== undefined, { message: 'This value is required.', path: ['hourtype_id'] });

const installment = z.object({
  name: z.string().trim().min(1).max(255),
  percentage: z.number().min(0).max(100).nullable().optional(),
  price: money.nullable().optional(),
  expiration_date: dateInput.nullable().optional(),
});

const text = z.string().max(10_000).nullable().optional();
const fields = {
  default_service_id: z.string().min(1).nullable().optional(),
  explanation: text,
  invoice_method: z.enum(V2_INVOICE_METHODS).optional(),
  subscription_cycle: z.enum(V2_SUBSCRIPTION_CYCLES).nullable().optional(),
  amount: money.nullable().optional(),
  price: money.nullable().optional(),
  track_hours: z.boolean().optional(),
  track_cost: z.boolean().optional(),
  start_date: dateInput.nullable().optional(),
  end_date: dateInput.nullable().optional(),
  write_hours_start_date: dateInput.nullable().optional(),
  write_hours_end_date: dateInput.nullable().optional(),
  expected_invoice_date: dateInput.nullable().optional(),
  vat_class_id: z.string().min(1).nullable().optional(),
  revenue_group_id: z.string().min(1).nullable().optional(),
  use_in_resource_planner: z.boolean().optional(),
  invoice_in_installments: z.boolean().optional(),
  installments: z.array(installment).max(100).optional(),
  hour_types: z.array(hourTypeLine).max(100).optional(),
};

export const postProjectServiceSchema = z.object({
  project_id: z.string().min(1),
  name: z.string().trim().min(1).max(255),
  ...fields,
});
export const putProjectServiceSchema = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
export type PostProjectServiceInput = z.infer<typeof postProjectServiceSchema>;
export type PutProjectServiceInput = z.infer<typeof putProjectServiceSchema>;

const V2_LINE_ACCEPTS = ['hourtype', 'itemtype'] as const;

/** v2 input in the domain's words. */
export function fromV2(input: PutProjectServiceInput & { project_id?: string }): ProjectServiceWrite {
  return {
    projectId: input.project_id,
    defaultServiceId: input.default_service_id,
    name: input.name,
    explanation: input.explanation,
    invoiceMethod: input.invoice_method ? invoiceMethodFromV2(input.invoice_method) : undefined,
    subscriptionCycle: input.subscription_cycle ? subscriptionCycleFromV2(input.subscription_cycle) : input.subscription_cycle,
    amount: input.amount,
    price: input.price,
    trackHours: input.track_hours,
    trackCost: input.track_cost,
    startDate: input.start_date,
    endDate: input.end_date,
    writeHoursStartDate: input.write_hours_start_date,
    writeHoursEndDate: input.write_hours_end_date,
    expectedInvoiceDate: input.expected_invoice_date,
    vatClassId: input.vat_class_id,
    revenueGroupId: input.revenue_group_id,
    useInResourcePlanner: input.use_in_resource_planner,
    invoiceInInstallments: input.invoice_in_installments,
    installments: input.installments?.map((i) => ({
      name: i.name,
      percentage: i.percentage,
      price: i.price,
      expirationDate: i.expiration_date,
    })),
    lines: input.hour_types?.map(
      (l, i): TypeLineInput => ({
        path: `hour_types.${i}`,
        idField: l.hourtype_id !== undefined ? 'hourtype_id' : 'hourstype_id',
        typeId: (l.hourtype_id ?? l.hourstype_id) as string,
        accepts: V2_LINE_ACCEPTS,
        tariff: l.tariff,
        budgetedAmount: l.budgeted_amount,
        purchaseTariff: l.purchase_tariff,
        billable: l.billable,
      }),
    ),
  };
}
