import { z } from 'zod';
import { spentShape } from './budget.js';
import { costTypeShape } from '../../costs/coststype/coststype.entity.js';
import { hourTypeShape } from '../../hours/hourstype/hourstype.entity.js';

/** An hour type line of a service as the service embeds it. */
export const serviceHourTypeShape = z.object({
  id: z.string(),
  hourType: hourTypeShape.nullable(),
  budgetedAmount: z.number().nullable(),
  tariff: z.number().nullable(),
  billable: z.boolean(),
});

/** A cost type line of a service as the service embeds it. */
export const serviceCostTypeShape = z.object({
  id: z.string(),
  costType: costTypeShape.nullable(),
  budgetedAmount: z.number().nullable(),
  tariff: z.number().nullable(),
  purchaseTariff: z.number().nullable(),
  purchaseMargin: z.number().nullable(),
  billable: z.boolean(),
});

export const installmentShape = z.object({
  id: z.string(),
  name: z.string(),
  percentage: z.number().nullable(),
  price: z.number().nullable(),
  expirationDate: z.string().nullable(),
  status: z.string(),
  invoiceId: z.string().nullable(),
});

/** What a project embeds of each of its services: enough for the project's budget. */
export const serviceOfProjectShape = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  status: z.string(),
  invoiceMethod: z.string(),
  price: z.number().nullable(),
  amount: z.number().nullable(),
  hourTypes: z.array(serviceHourTypeShape),
  costTypes: z.array(serviceCostTypeShape),
  invoicedAmount: z.number(),
  spent: spentShape,
});
