import { areaDocumentRouters, DOCUMENT_AREAS } from '../documents/area-documents.js';
import { z } from 'zod';
import {
  entityCreate,
  entityCreateCommand,
  entityDelete,
  entityQueries,
  entityUpdate,
  entityUpdateCommand,
} from '../shared/entity/index.js';
import { moduleProcedure, router } from '../trpc.js';
import { createInvoiceDraftRequest } from './draft-request/create-invoice-draft-request.js';
import { getInvoiceDraftRequest } from './draft-request/get-invoice-draft-request.js';
import { createInvoiceDraftRequestInput, invoiceDraftRequestSchema } from './draft-request/invoice-draft-request.schema.js';
import { createInvoice } from './invoice/create-invoice.js';
import { invoice } from './invoice/invoice.entity.js';
import { creditInvoiceInput, createInvoiceInput, sendInvoiceInput, updateInvoiceInput } from './invoice/invoice.schema.js';
import { creditInvoice, sendInvoice } from './invoice/invoice-commands.js';
import { removeInvoice, updateInvoice } from './invoice/update-invoice.js';
import { invoiceStatus, paymentTerm, reminderSet, reminderTemplate } from './lookups/invoice-lookups.entity.js';
import { invoiceVatClass, proposition } from './lookups/proposition.entity.js';
import { reverseInvoice } from './lookups/reverse-invoice.entity.js';
import { payment } from './payment/payment.entity.js';
import { registerPaymentInput, updatePaymentInput } from './payment/payment.schema.js';
import { registerPayment, updatePayment } from './payment/payment.write.js';

export const invoicesRouter = router({
  invoiceDraftRequest: router({
    create: moduleProcedure('invoices', 'write')
      .input(createInvoiceDraftRequestInput)
      .output(invoiceDraftRequestSchema)
      .mutation(({ ctx, input }) => createInvoiceDraftRequest(ctx, input)),
    get: moduleProcedure('invoices', 'read')
      .input(z.object({ id: z.string().min(1) }))
      .output(invoiceDraftRequestSchema)
      .query(({ ctx, input }) => getInvoiceDraftRequest(ctx, input.id)),
  }),
  /** invoices: drafts are written and deleted; a draft is sent (numbered), a sent one credited */
  invoice: router({
    ...entityQueries(invoice),
    create: entityCreate(invoice, createInvoiceInput, createInvoice),
    update: entityUpdate(invoice, updateInvoiceInput, updateInvoice),
    delete: entityDelete(invoice, removeInvoice),
    createCommand: entityCreateCommand(invoice, createInvoiceInput, createInvoice),
    send: moduleProcedure('invoices', 'write')
      .input(sendInvoiceInput)
      .output(invoice.schema)
      .mutation(({ ctx, input }) => sendInvoice(ctx, input)),
    credit: moduleProcedure('invoices', 'write')
      .input(creditInvoiceInput)
      .output(invoice.schema)
      .mutation(({ ctx, input }) => creditInvoice(ctx, input)),
  }),
  payment: router({
    ...entityQueries(payment),
    create: entityCreate(payment, registerPaymentInput, registerPayment),
    update: entityUpdate(payment, updatePaymentInput, updatePayment),
    register: entityCreateCommand(payment, registerPaymentInput, registerPayment),
    edit: entityUpdateCommand(payment, updatePaymentInput, updatePayment),
  }),
  paymentterm: router(entityQueries(paymentTerm)),
  invoicestatus: router(entityQueries(invoiceStatus)),
  reminderset: router(entityQueries(reminderSet)),
  remindertemplate: router(entityQueries(reminderTemplate)),
  vatclass: router(entityQueries(invoiceVatClass)),
  proposition: router(entityQueries(proposition)),
  reverseinvoice: router(entityQueries(reverseInvoice)),
  /** the documents linked to an invoice, and the types meant for invoices, under the invoices right */
  ...areaDocumentRouters(DOCUMENT_AREAS.invoices),
});
