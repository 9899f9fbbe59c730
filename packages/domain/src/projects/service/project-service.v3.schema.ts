import { z } from 'zod';
import { INVOICE_METHODS, SUBSCRIPTION_CYCLES } from './invoice-method.js';

/**
 * v3 shapes of project services (names from the contract, fields ours, camelCase).
 * Request schemas are strict: an unknown property is refused, so only valid data is stored.
 */
const id = z.string().min(1).max(200);
const text = z.string().max(10_000).nullable().optional();
const amount = z.number().finite().min(0).max(1e10);
const date = z.iso.date().transform((s) => new Date(`${s}T00:00:00.000Z`));
const name = z.string().trim().min(1, 'This value should not be blank.').max(255);

const hourTypeLine = z
  .object({
    hourTypeId: id.meta({ description: 'an hour type id (prefix hourtype:)' }),
    tariff: amount.nullable().optional(),
    budgetedAmount: amount.nullable().optional(),
    billable: z.boolean().nullable().optional(),
  })
  .strict();
const costTypeLine = z
  .object({
    costTypeId: id.meta({ description: 'a cost type id (prefix itemtype:)' }),
    tariff: amount.nullable().optional(),
    purchaseTariff: amount.nullable().optional(),
    budgetedAmount: amount.nullable().optional(),
    billable: z.boolean().nullable().optional(),
  })
  .strict();
const installment = z
  .object({
    name,
    percentage: z.number().min(0).max(100).nullable().optional(),
    price: amount.nullable().optional(),
    expirationDate: date.nullable().optional(),
  })
  .strict();

const invoiceableFields = {
  defaultServiceId: id.nullable().optional(),
  explanation: text,
  subscriptionCycle: z.enum(SUBSCRIPTION_CYCLES).nullable().optional(),
  price: amount.nullable().optional(),
  amount: amount.nullable().optional(),
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
  installments: z.array(installment).max(100).optional(),
  hourTypes: z.array(hourTypeLine).max(100).optional(),
  costTypes: z.array(costTypeLine).max(100).optional(),
};

export const CreateProjectService = z
  .object({ projectId: id, name, invoiceMethod: z.enum(INVOICE_METHODS), ...invoiceableFields })
  .strict();
export const EditProjectService = z
  .object({ id, name: name.optional(), invoiceMethod: z.enum(INVOICE_METHODS).optional(), ...invoiceableFields })
  .strict();

const acquisitionFields = {
  defaultServiceId: id.nullable().optional(),
  explanation: text,
  startDate: date.nullable().optional(),
  endDate: date.nullable().optional(),
  hourTypes: z
    .array(
      z.object({ hourTypeId: id, tariff: amount.nullable().optional(), budgetedAmount: amount.nullable().optional() }).strict(),
    )
    .max(100)
    .optional(),
};
export const CreateAcquisitionProjectService = z.object({ projectId: id, name, ...acquisitionFields }).strict();
export const EditAcquisitionProjectService = z.object({ id, name: name.optional(), ...acquisitionFields }).strict();

const advanceFields = { explanation: text, expectedInvoiceDate: date.nullable().optional() };
export const CreateAdvanceProjectService = z
  .object({ projectId: id, name: name.optional(), price: z.number().finite().positive().max(1e10), ...advanceFields })
  .strict();
export const EditAdvanceProjectService = z
  .object({ id, name: name.optional(), price: z.number().finite().positive().max(1e10).optional(), ...advanceFields })
  .strict();

export const BuildProjectService = z.object({ projectId: id, defaultServiceId: id }).strict();
export const BuildProjectAcquisitionService = z.object({ projectId: id, defaultServiceId: id }).strict();

// ---- responses ----
const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();
const isoDate = z.iso.date().nullable();
const isoDateTime = z.iso.datetime();

export const ServiceHourType = z.object({
  id: z.string().meta({ description: 'the line id (prefix projecthourtype:); never accepted as an hour type id' }),
  hourTypeId: z.string(),
  label: z.string(),
  tariff: nullableNumber,
  budgetedAmount: nullableNumber,
  billable: z.boolean(),
});
export const ServiceCostType = z.object({
  id: z.string(),
  costTypeId: z.string(),
  label: z.string(),
  tariff: nullableNumber,
  purchaseTariff: nullableNumber,
  budgetedAmount: nullableNumber,
  billable: z.boolean(),
});
export const BudgetOutput = z.object({
  hours: z.object({ amountBudget: z.number(), amountSpent: z.number(), valueBudget: z.number(), valueSpent: z.number() }),
  costs: z.object({ valueBudget: z.number(), valueSpent: z.number() }),
  total: z.object({ valueBudget: z.number(), valueSpent: z.number(), valueInvoiced: z.number() }),
});

const common = {
  id: z.string().meta({ description: 'UUID v7 for services created by this service; older ids keep their form' }),
  projectId: z.string(),
  defaultServiceId: nullableString,
  name: z.string(),
  explanation: nullableString,
  status: z.enum(['open', 'invoiced']),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
};

export const InvoiceableService = z.object({
  ...common,
  kind: z.literal('invoiceable'),
  invoiceMethod: z.enum(INVOICE_METHODS),
  subscriptionCycle: z.enum(SUBSCRIPTION_CYCLES).nullable(),
  price: nullableNumber,
  amount: nullableNumber,
  trackHours: z.boolean(),
  trackCost: z.boolean(),
  startDate: isoDate,
  endDate: isoDate,
  writeHoursStartDate: isoDate,
  writeHoursEndDate: isoDate,
  expectedInvoiceDate: isoDate,
  vatClassId: nullableString,
  revenueGroupId: nullableString,
  useInResourcePlanner: z.boolean(),
  invoiceInInstallments: z.boolean(),
  installments: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      percentage: nullableNumber,
      price: nullableNumber,
      expirationDate: isoDate,
      status: z.enum(['open', 'invoiced']),
    }),
  ),
  hourTypes: z.array(ServiceHourType),
  costTypes: z.array(ServiceCostType),
  budget: BudgetOutput,
});

export const AcquisitionService = z.object({
  ...common,
  kind: z.literal('acquisition'),
  phase: z.enum(['acquisition', 'execution']).meta({ description: 'execution once the project is approved' }),
  startDate: isoDate,
  endDate: isoDate,
  hourTypes: z.array(ServiceHourType),
  budget: BudgetOutput,
});

export const AdvanceService = z.object({
  ...common,
  kind: z.literal('advance'),
  price: nullableNumber,
  expectedInvoiceDate: isoDate,
  vatClassId: nullableString,
  revenueGroupId: nullableString,
});

export const AdvanceServiceConfiguration = z.object({
  name: z.string().meta({ description: 'name an advance service gets when the request names none' }),
  defaultServiceId: nullableString,
  invoiceMethod: z.literal('fixed_price'),
  vatClassId: nullableString,
  revenueGroupId: nullableString,
});

export const BuiltService = z.object({
  kind: z.enum(['invoiceable', 'acquisition']),
  projectId: z.string(),
  defaultServiceId: z.string(),
  name: z.string(),
  explanation: nullableString,
  invoiceMethod: z.enum(INVOICE_METHODS).nullable().meta({ description: 'null for an acquisition service' }),
  subscriptionCycle: z.enum(SUBSCRIPTION_CYCLES).nullable(),
  price: nullableNumber,
  trackHours: z.boolean(),
  trackCost: z.boolean(),
  vatClassId: nullableString,
  revenueGroupId: nullableString,
  hourTypes: z.array(ServiceHourType.omit({ id: true })),
  costTypes: z.array(ServiceCostType.omit({ id: true })),
});

export type InvoiceableServiceOutput = z.infer<typeof InvoiceableService>;
export type AcquisitionServiceOutput = z.infer<typeof AcquisitionService>;
export type AdvanceServiceOutput = z.infer<typeof AdvanceService>;
export type BuiltServiceOutput = z.infer<typeof BuiltService>;
