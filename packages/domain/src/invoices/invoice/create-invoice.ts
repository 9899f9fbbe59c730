import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateInvoiceInput } from './invoice.schema.js';
import { requireStorage, sendWithin } from './invoice-commands.js';
import { defaultPaymentTerm, dueDateOf, fromInput, invoiceReferences, requestedSend, writeLines } from './invoice.write.js';

/** POST invoices/invoice: a draft invoice with its lines (the totals are computed from them); sent at once when its status_id asks. */
export const createInvoice: EntityCreate<CreateInvoiceInput> = {
  references: invoiceReferences,
  async run(w, input) {
    const term = input.paymentTermId
      ? await w.tx.paymentTerm.findFirst({ where: { id: input.paymentTermId } })
      : await defaultPaymentTerm(w.tx);
    const id = newEntityId('invoice');
    const invoiceDate = input.invoiceDate ?? null;
    await w.tx.invoice.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        status: 'draft',
        organizationId: input.organizationId ?? null,
        personId: input.personId ?? null,
        projectId: input.projectId ?? null,
        myOrganizationProfileId: input.myOrganizationProfileId ?? null,
        paymentTermId: term?.id ?? null,
        reminderSetId: input.reminderSetId ?? null,
        invoiceDate,
        dueDate: dueDateOf(invoiceDate, term?.days ?? null),
        subject: input.subject ?? null,
        reference: input.reference ?? null,
        comments: input.comments ?? null,
        totalAmount: 0,
      },
    });
    await writeLines(w.tx, id, input.lines.map(fromInput));
    if (await requestedSend(w.tx, input.statusId)) await sendWithin(w, requireStorage(w.ctx), id, undefined, []);
    return id;
  },
};
