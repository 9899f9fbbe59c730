import type { Invoice } from '@bo/domain/invoices/invoice/invoice.entity';
import { z } from 'zod';
import { commandEndpoint, getEndpoint, listEndpoint, type NamedSchema } from './types.js';

const money = z.string().regex(/^-?\d+\.\d{2}$/);

/** v3 Invoice: amounts are exact decimal text; `state` is the status, or overdue. */
const InvoiceV3 = z.object({
  id: z.string(),
  invoiceNumber: z.string().nullable(),
  kind: z.enum(['invoice', 'credit']),
  status: z.enum(['draft', 'sent', 'partially_paid', 'paid', 'credited']),
  state: z.enum(['draft', 'sent', 'partially_paid', 'paid', 'credited', 'overdue']),
  invoiceDate: z.iso.date().nullable(),
  dueDate: z.iso.date().nullable(),
  organizationId: z.string().nullable(),
  personId: z.string().nullable(),
  projectId: z.string().nullable(),
  creditedInvoiceId: z.string().nullable(),
  paymentTermId: z.string().nullable(),
  subject: z.string().nullable(),
  reference: z.string().nullable(),
  totalExcl: money,
  totalVat: money,
  totalIncl: money,
  totalPaid: money,
  totalOutstanding: money,
  vatByClass: z.array(z.object({ vatClassId: z.string().nullable(), percentage: z.string(), base: money, vat: money })),
  lines: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      projectServiceId: z.string().nullable(),
      projectId: z.string().nullable(),
      quantity: z.string(),
      price: z.string(),
      amount: money,
      vatClassId: z.string().nullable(),
      vatPercentage: z.string(),
      vatAmount: money,
      sourceType: z.string().nullable(),
    }),
  ),
  reminder: z
    .object({
      setId: z.string(),
      daysOverdue: z.number().int(),
      current: z.object({ label: z.string(), date: z.iso.date() }).nullable(),
      next: z.object({ label: z.string(), date: z.iso.date() }).nullable(),
    })
    .nullable(),
  sentAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

const invoiceSchema: NamedSchema = { name: 'Invoice.Invoice', schema: InvoiceV3 };

export function invoiceV3(i: Invoice): z.infer<typeof InvoiceV3> {
  const step = (s: { label: string; date: string } | null) => (s ? { label: s.label, date: s.date } : null);
  return {
    id: i.id,
    invoiceNumber: i.invoiceNumber,
    kind: i.kind,
    status: i.status,
    state: i.state,
    invoiceDate: i.invoiceDate,
    dueDate: i.dueDate,
    organizationId: i.organizationId,
    personId: i.personId,
    projectId: i.projectId,
    creditedInvoiceId: i.creditedInvoiceId,
    paymentTermId: i.paymentTerm?.id ?? null,
    subject: i.subject,
    reference: i.reference,
    totalExcl: i.totalExcl,
    totalVat: i.totalVat,
    totalIncl: i.totalIncl,
    totalPaid: i.totalPaid,
    totalOutstanding: i.totalOutstanding,
    vatByClass: i.vatByClass,
    lines: i.lines.map((l) => ({
      id: l.id,
      description: l.description,
      projectServiceId: l.projectServiceId,
      projectId: l.projectId,
      quantity: l.quantity,
      price: l.price,
      amount: l.amount,
      vatClassId: l.vatClass?.id ?? null,
      vatPercentage: l.vatPercentage,
      vatAmount: l.vatAmount,
      sourceType: l.sourceType,
    })),
    reminder: i.reminder
      ? {
          setId: i.reminder.setId,
          daysOverdue: i.reminder.daysOverdue,
          current: step(i.reminder.current),
          next: step(i.reminder.next),
        }
      : null,
    sentAt: i.sentAt ? i.sentAt.toISOString() : null,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}

const date = z.iso.date();

const SendInvoice = z.object({ invoiceDate: date.optional() }).strict();
const CreditInvoice = z.object({ invoiceDate: date.optional(), reason: z.string().max(1000).nullable().optional() }).strict();

const CreateInvoice = z
  .object({
    organizationId: z.string().min(1).nullable().optional(),
    personId: z.string().min(1).nullable().optional(),
    projectId: z.string().min(1).nullable().optional(),
    paymentTermId: z.string().min(1).nullable().optional(),
    invoiceDate: date.nullable().optional(),
    subject: z.string().max(255).nullable().optional(),
    reference: z.string().max(255).nullable().optional(),
    lines: z
      .array(
        z
          .object({
            description: z.string().min(1).max(1000),
            quantity: z.number().optional(),
            price: z.number(),
            vatClassId: z.string().min(1).nullable().optional(),
            revenueGroupId: z.string().min(1).nullable().optional(),
            projectServiceId: z.string().min(1).nullable().optional(),
            projectId: z.string().min(1).nullable().optional(),
          })
          .strict(),
      )
      .max(500),
  })
  .strict();

/** Invoices (issue 13): read, create a draft, send (numbered, dated, rendered as a PDF document) and credit. */
export const invoiceEndpoints = {
  'invoice.create': commandEndpoint<z.output<typeof CreateInvoice>, { data: never }, Invoice>({
    call: (c) => c.invoices.invoice.createCommand,
    mapInput: (body) => ({ data: body as never }),
    map: invoiceV3,
    status: 201,
    doc: {
      summary: 'Creates a draft invoice with its lines; totals and VAT per class are computed from them',
      request: { name: 'Invoice.Create', schema: CreateInvoice },
      response: invoiceSchema,
      errors: [400, 403, 422],
    },
  }),
  'invoice.list': listEndpoint<Invoice>({
    call: (c) => c.invoices.invoice.list,
    filters: {
      status: 'statusKey',
      projectId: 'projectId',
      organizationId: 'organizationId',
      personId: 'personId',
      invoiceNumber: 'invoiceNumber',
    },
    map: invoiceV3,
    doc: { summary: 'Invoices, paged', response: invoiceSchema, errors: [400, 403] },
  }),
  'invoice.get': getEndpoint<Invoice>({
    call: (c) => c.invoices.invoice.get,
    map: invoiceV3,
    doc: { summary: 'One invoice with its lines and totals', response: invoiceSchema, errors: [403, 404] },
  }),
  'invoice.send': commandEndpoint<z.output<typeof SendInvoice>, { id: string; invoiceDate?: string }, Invoice>({
    call: (c) => c.invoices.invoice.send,
    withId: true,
    mapInput: (body, id) => ({ id: id as string, ...(body.invoiceDate ? { invoiceDate: body.invoiceDate } : {}) }),
    map: invoiceV3,
    status: 200,
    doc: {
      summary: 'Sends a draft: it gets the next invoice number, its dates and its PDF document (no mail leaves)',
      request: { name: 'Invoice.Send', schema: SendInvoice },
      response: invoiceSchema,
      errors: [400, 403, 404, 422],
    },
  }),
  'invoice.credit': commandEndpoint<
    z.output<typeof CreditInvoice>,
    { id: string; invoiceDate?: string; reason?: string | null },
    Invoice
  >({
    call: (c) => c.invoices.invoice.credit,
    withId: true,
    mapInput: (body, id) => ({
      id: id as string,
      ...(body.invoiceDate ? { invoiceDate: body.invoiceDate } : {}),
      ...(body.reason !== undefined ? { reason: body.reason } : {}),
    }),
    map: invoiceV3,
    status: 201,
    doc: {
      summary: 'Credits a sent invoice: a numbered credit invoice reverses it line by line; answers the credit invoice',
      request: { name: 'Invoice.Credit', schema: CreditInvoice },
      response: invoiceSchema,
      errors: [400, 403, 404, 422],
    },
  }),
};
