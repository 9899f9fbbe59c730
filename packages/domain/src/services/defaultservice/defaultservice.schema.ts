import { z } from 'zod';
import { COST_TYPE_PREFIX } from '../../costs/coststype/coststype.entity.js';
import { HOUR_TYPE_PREFIX } from '../../hours/hourstype/hourstype.entity.js';
import { INVOICE_METHODS } from '../../projects/service/invoice-method.js';
import { money } from '../../shared/numbers.js';

/** Write shape of a default service, in domain terms. */
const text = z.string().max(10_000).nullable().optional();
const fields = {
  vatClassId: z.string().min(1).nullable().optional(),
  revenueGroupId: z.string().min(1).nullable().optional(),
  myOrganizationProfileId: z.string().min(1).nullable().optional(),
  priceEditable: z.boolean().optional(),
  price: money.nullable().optional(),
  explanation: text,
  invoiceMethod: z.enum(INVOICE_METHODS).optional(),
  trackHours: z.boolean().optional(),
  trackCost: z.boolean().optional(),
  hourTypes: z
    .array(
      z.object({
        hourTypeId: z.string().startsWith(`${HOUR_TYPE_PREFIX}:`, 'Only hourtype ids are accepted.'),
        tariff: money.nullable().optional(),
        budgetedAmount: money.nullable().optional(),
      }),
    )
    .max(100)
    .optional(),
  costTypes: z
    .array(
      z.object({
        costTypeId: z.string().startsWith(`${COST_TYPE_PREFIX}:`, 'Only itemtype ids are accepted.'),
        tariff: money.nullable().optional(),
        purchaseTariff: money.nullable().optional(),
        budgetedAmount: money.nullable().optional(),
      }),
    )
    .max(100)
    .optional(),
};
export const createDefaultServiceInput = z.object({ name: z.string().trim().min(1).max(255), ...fields });
export const updateDefaultServiceInput = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
export type CreateDefaultServiceInput = z.infer<typeof createDefaultServiceInput>;
export type UpdateDefaultServiceInput = z.infer<typeof updateDefaultServiceInput>;
