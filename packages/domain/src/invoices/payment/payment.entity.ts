import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { invoice } from '../invoice/invoice.entity.js';

/** A payment received on an invoice; it reduces the invoice's open amount. */
export const payment = defineEntity({
  type: 'payment',
  table: 'payment',
  module: 'invoices',
  defaultSort: [{ path: 'createdAt', dir: 'asc' }],
  fields: {
    id: f.id(),
    invoiceId: f.requiredString({ references: (): TargetEntity => invoice }),
    date: f.date(),
    /** exact, as text */
    amount: f.computed('string', z.string(), (t) => `${t}.amount::text`),
    isOverpayment: f.boolean(),
    description: f.string(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Payment = z.infer<typeof payment.schema>;
