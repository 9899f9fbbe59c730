import { columnsOf } from '../../shared/entity/columns.js';
import type { EntityUpdate, SqlWriteContext } from '../../shared/entity/index.js';
import type { UpdateInvoiceInput } from './invoice.schema.js';
import { requireStorage, reserveRenderToSend, sendWithin } from './invoice-commands.js';
import {
  assertDraft,
  dueDateOf,
  fromInput,
  invoiceReferences,
  isoDay,
  lockedInvoice,
  paymentTermById,
  requestedSend,
  writeLines,
} from './invoice.write.js';

/** PUT invoices/invoice/{id}: only a draft changes (and is sent when its status_id asks); a sent invoice is credited instead. */
export const updateInvoice: EntityUpdate<UpdateInvoiceInput> = {
  reserveRender: reserveRenderToSend,
  references: invoiceReferences,
  async run(w, id, input) {
    const row = await lockedInvoice(w, id);
    assertDraft(row, 'edited');
    const paymentTermId = input.paymentTermId === undefined ? row.paymentTermId : input.paymentTermId;
    const term = paymentTermId ? await paymentTermById(w.sql, paymentTermId) : null;
    const invoiceDate = input.invoiceDate === undefined ? row.invoiceDate : input.invoiceDate;
    const due = dueDateOf(invoiceDate, term?.days ?? null);
    // the fields named (undefined: left as they are)
    const named = columnsOf({
      organizationId: input.organizationId,
      personId: input.personId,
      projectId: input.projectId,
      myOrganizationProfileId: input.myOrganizationProfileId,
      reminderSetId: input.reminderSetId,
      subject: input.subject,
      reference: input.reference,
      comments: input.comments,
    });
    await w.sql.update('invoice', id, {
      ...named,
      payment_term_id: paymentTermId,
      invoice_date: invoiceDate ? isoDay(invoiceDate) : null,
      due_date: due ? isoDay(due) : null,
      updated_at: w.now,
    });
    if (input.lines) await writeLines(w, id, input.lines.map(fromInput));
    if (await requestedSend(w.sql, input.statusId)) await sendWithin(w, requireStorage(w.ctx), id, undefined, []);
  },
};

/**
 * DELETE invoices/invoice/{id}: a draft goes with its lines, and what it billed is
 * free to be drafted again; a sent invoice is never deleted, only credited.
 * (In the generic delete's transaction; every statement through the reader.)
 */
export async function removeInvoice(w: SqlWriteContext, id: string): Promise<void> {
  const row = await lockedInvoice(w, id);
  assertDraft(row, 'deleted');
  await w.sql.queue(
    `UPDATE project_service_installment SET invoice_id = NULL, status = 'open' WHERE environment_id = $1 AND invoice_id = $2`,
    [id],
  );
  await w.sql.queue(
    'UPDATE invoice_draft_request_project SET invoice_id = NULL, updated_at = $3 WHERE environment_id = $1 AND invoice_id = $2',
    [id, w.now],
  );
  await w.sql.queue('DELETE FROM invoice_line WHERE environment_id = $1 AND invoice_id = $2', [id]);
  await w.sql.deleteById('invoice', id);
}
