import { z } from 'zod';
import { dateInput } from '../../shared/numbers.js';

export const createExpenseInput = z.object({
  employeeId: z.string().min(1),
  projectServiceId: z.string().min(1),
  costTypeId: z.string().min(1),
  startDate: dateInput,
  amount: z.number().gt(0, 'The amount must be more than zero.').max(1_000_000, 'The amount is too large.'),
  purchasePrice: z.number().min(0).max(100_000_000).nullable().optional(),
  billable: z.boolean().nullable().optional(),
  note: z.string().max(10_000).nullable().optional(),
  /** documents from the upload flow */
  attachments: z
    .array(z.object({ id: z.string().min(1) }))
    .max(20)
    .optional(),
});
export type CreateExpenseInput = z.infer<typeof createExpenseInput>;

/** What an expense may change; its service and cost type stay. */
export const updateExpenseInput = z.object({
  startDate: dateInput.optional(),
  amount: createExpenseInput.shape.amount.optional(),
  purchasePrice: createExpenseInput.shape.purchasePrice,
  note: createExpenseInput.shape.note,
});
export type UpdateExpenseInput = z.infer<typeof updateExpenseInput>;
