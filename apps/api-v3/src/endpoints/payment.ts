import type { Payment } from '@bo/domain/invoices/payment/payment.entity';
import { z } from 'zod';
import { commandEndpoint, type NamedSchema } from './types.js';

const PaymentV3 = z.object({
  id: z.string(),
  invoiceId: z.string(),
  date: z.iso.date().nullable(),
  amount: z.string(),
  isOverpayment: z.boolean(),
  description: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

const RegisterPayment = z
  .object({
    invoiceId: z.string().min(1).max(255),
    date: z.iso.date(),
    /** a JSON number of at most 2 decimals, above zero */
    amount: z.number(),
    isOverpayment: z.boolean().optional(),
    description: z.string().max(1000).nullable().optional(),
  })
  .strict();

const paymentSchema: NamedSchema = { name: 'Invoice.Payment', schema: PaymentV3 };

export function paymentV3(p: Payment): z.infer<typeof PaymentV3> {
  return {
    id: p.id,
    invoiceId: p.invoiceId,
    date: p.date,
    amount: p.amount,
    isOverpayment: p.isOverpayment,
    description: p.description,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** Payments (issue 13): registered on a sent invoice, they reduce its open amount. */
export const paymentEndpoints = {
  'payment.register': commandEndpoint<z.output<typeof RegisterPayment>, { data: never }, Payment>({
    call: (c) => c.invoices.payment.register,
    mapInput: (body) => ({ data: body as never }),
    map: paymentV3,
    status: 201,
    doc: {
      summary: 'Registers a payment on a sent invoice; more than the open amount only when marked as an overpayment',
      request: { name: 'Invoice.Payment.Register', schema: RegisterPayment },
      response: paymentSchema,
      errors: [400, 403, 422],
    },
  }),
};
