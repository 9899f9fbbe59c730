import type { EntityRemove, EntityUpdate } from '../../shared/entity/index.js';
import type { UpdateInvoiceInput } from './invoice.schema.js';
import { requireStorage, sendWithin } from './invoice-commands.js';
import {
  assertDraft,
  dueDateOf,
  fromInput,
  invoiceReferences,
  lockedInvoice,
  requestedSend,
  writeLines,
} from './invoice.write.js';

/** PUT invoices/invoice/{id}: only a draft changes (and is sent when its status_id asks); a sent invoice is credited instead. */
export const updateInvoice: EntityUpdate<UpdateInvoiceInput> = {
  references: invoiceReferences,
  async run(w, id, input) {
    const row = await lockedInvoice(w, id);
    assertDraft(row, 'edited');
    const paymentTermId = input.paymentTermId === undefined ? row.paymentTermId : input.paymentTermId;
    const term = paymentTermId ? await w.tx.paymentTerm.findFirst({ where: { id: paymentTermId } }) : null;
    const invoiceDate = input.invoiceDate === undefined ? row.invoiceDate : input.invoiceDate;
    const data: Record<string, unknown> = {};
    for (const key of [
      'organizationId',
      'personId',
      'projectId',
      'myOrganizationProfileId',
      'reminderSetId',
      'subject',
      'reference',
      'comments',
    ] as const) {
      if (input[key] !== undefined) data[key] = input[key];
    }
    await w.tx.invoice.update({
      where: { id },
      data: { ...data, paymentTermId, invoiceDate, dueDate: dueDateOf(invoiceDate, term?.days ?? null), updatedAt: w.now },
    });
    if (input.lines) await writeLines(w.tx, id, input.lines.map(fromInput));
    if (await requestedSend(w.tx, input.statusId)) await sendWithin(w, requireStorage(w.ctx), id, undefined, []);
  },
};

/**
 * DELETE invoices/invoice/{id}: a draft goes with its lines, and what it billed is
 * free to be drafted again; a sent invoice is never deleted, only credited.
 */
export const removeInvoice: EntityRemove = async (w, id) => {
  const row = await lockedInvoice(w, id);
  assertDraft(row, 'deleted');
  await w.tx.projectServiceInstallment.updateMany({ where: { invoiceId: id }, data: { invoiceId: null, status: 'open' } });
  await w.tx.invoiceDraftRequestProject.updateMany({ where: { invoiceId: id }, data: { invoiceId: null } });
  await w.tx.invoiceLine.deleteMany({ where: { invoiceId: id } });
  await w.sql.deleteById('invoice', id);
};
