import { z } from 'zod';
import { dateInput } from '../../shared/numbers.js';
import { decimalInput } from '../invoice/invoice.schema.js';

/** reference: Payment (invoice_id, date, amount), with the overpayment mark. */
const amount = decimalInput(z.number().finite().gt(0, 'a payment amount must be positive').max(1e10), 2);

export const registerPaymentInput = z.strictObject({
  invoiceId: z.string().min(1).max(255),
  date: dateInput,
  amount,
  /** an amount above the open amount is refused unless marked as an overpayment */
  isOverpayment: z.boolean().default(false),
  description: z.string().max(1000).nullable().optional(),
});
export type RegisterPaymentInput = z.infer<typeof registerPaymentInput>;

export const updatePaymentInput = z.strictObject({
  date: dateInput.optional(),
  amount: amount.optional(),
  isOverpayment: z.boolean().optional(),
  description: z.string().max(1000).nullable().optional(),
});
export type UpdatePaymentInput = z.infer<typeof updatePaymentInput>;
