import type { EntityCreate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateInvoiceInput } from './invoice.schema.js';
import { requireStorage, reserveRenderToSend, sendWithin } from './invoice-commands.js';
import {
  defaultPaymentTerm,
  dueDateOf,
  fromInput,
  invoiceReferences,
  isoDay,
  paymentTermById,
  requestedSend,
  writeLines,
} from './invoice.write.js';

/** POST invoices/invoice: a draft invoice with its lines (the totals are computed from them); sent at once when its status_id asks. */
export const createInvoice: EntityCreate<CreateInvoiceInput> = {
  reserveRender: reserveRenderToSend,
  references: invoiceReferences,
  // the row, its lines and its event through the transaction's reader, in a transaction of our own
  async run(w, input) {
    const term = input.paymentTermId ? await paymentTermById(w.sql, input.paymentTermId) : await defaultPaymentTerm(w.sql);
    const id = newEntityId('invoice');
    const invoiceDate = input.invoiceDate ?? null;
    const due = dueDateOf(invoiceDate, term?.days ?? null);
    // kind, status and the totals but total_amount take their defaults ('invoice', 'draft', 0)
    await w.sql.insert('invoice', {
      id,
      status: 'draft',
      organization_id: input.organizationId ?? null,
      person_id: input.personId ?? null,
      project_id: input.projectId ?? null,
      my_organization_profile_id: input.myOrganizationProfileId ?? null,
      payment_term_id: term?.id ?? null,
      reminder_set_id: input.reminderSetId ?? null,
      invoice_date: invoiceDate ? isoDay(invoiceDate) : null,
      due_date: due ? isoDay(due) : null,
      subject: input.subject ?? null,
      reference: input.reference ?? null,
      comments: input.comments ?? null,
      total_amount: 0,
      updated_at: w.now,
    });
    await writeLines(w, id, input.lines.map(fromInput));
    if (await requestedSend(w.sql, input.statusId)) await sendWithin(w, requireStorage(w.ctx), id, undefined, []);
    return id;
  },
};
