import { z } from 'zod';
import { parseScaled } from '../../sales/quote/decimal.js';
import { dateInput } from '../../shared/numbers.js';

/** Write shapes of an invoice, in domain terms (reference: PostInvoice, Invoice, PostInvoiceLine). */
const id = z.string().min(1).max(255);

/** an exact decimal of at most `scale` decimals */
export const decimalInput = (schema: z.ZodNumber, scale: number) =>
  schema.refine(
    (n) => {
      try {
        parseScaled(n, scale);
        return true;
      } catch {
        return false;
      }
    },
    { message: `at most ${scale} decimals` },
  );

export const invoiceLineInput = z.strictObject({
  description: z.string().trim().min(1).max(1000).optional(),
  quantity: decimalInput(z.number().finite().min(-1e9).max(1e9), 4).default(1),
  price: decimalInput(z.number().finite().min(-1e10).max(1e10), 4),
  vatClassId: id.nullable().optional(),
  revenueGroupId: id.nullable().optional(),
  projectServiceId: id.nullable().optional(),
  projectId: id.nullable().optional(),
  lineDate: dateInput.nullable().optional(),
});
export type InvoiceLineInput = z.infer<typeof invoiceLineInput>;

const fields = {
  /** the reference's status_id: the draft status keeps a draft, the sent status sends it (as invoice.send) */
  statusId: id.nullable().optional(),
  organizationId: id.nullable().optional(),
  personId: id.nullable().optional(),
  projectId: id.nullable().optional(),
  myOrganizationProfileId: id.nullable().optional(),
  paymentTermId: id.nullable().optional(),
  reminderSetId: id.nullable().optional(),
  invoiceDate: dateInput.nullable().optional(),
  subject: z.string().max(255).nullable().optional(),
  reference: z.string().max(255).nullable().optional(),
  comments: z.string().max(10_000).nullable().optional(),
};

export const createInvoiceInput = z.strictObject({
  ...fields,
  lines: z.array(invoiceLineInput).max(500).default([]),
});
export type CreateInvoiceInput = z.infer<typeof createInvoiceInput>;

/** Only a draft may be changed; `lines`, when given, replace the lines. */
export const updateInvoiceInput = z.strictObject({
  ...fields,
  lines: z.array(invoiceLineInput).max(500).optional(),
});
export type UpdateInvoiceInput = z.infer<typeof updateInvoiceInput>;

export const sendInvoiceInput = z.strictObject({
  id,
  /** the invoice date; today when the draft has none */
  invoiceDate: dateInput.optional(),
});

export const creditInvoiceInput = z.strictObject({
  id,
  invoiceDate: dateInput.optional(),
  reason: z.string().max(1000).nullable().optional(),
});
