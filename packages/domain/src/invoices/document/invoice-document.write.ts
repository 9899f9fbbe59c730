import { createDocument } from '../../documents/create-document.js';
import type { CreateDocumentInput, UpdateDocumentInput } from '../../documents/document.schema.js';
import type { LinkedToInput } from '../../documents/linked-to.js';
import { removeDocument } from '../../documents/remove-document.js';
import { updateDocument } from '../../documents/update-document.js';
import type { EntityCreate, EntityRemove, EntityUpdate } from '../../shared/entity/index.js';
import { BusinessRuleError, ValidationError } from '../../shared/errors.js';

/**
 * invoices/document writes: the document store's own writes, for documents linked to an
 * invoice. The PDF a sent invoice was rendered into stays as long as the invoice does.
 */
const linksInvoice = (l: LinkedToInput | undefined): boolean => {
  const link = Array.isArray(l) ? l[0] : l;
  return !!link?.invoiceId;
};

const invoiceOnly = () =>
  new ValidationError([
    { path: 'linkedTo', message: 'an invoice document is linked to an invoice (invoice_id)', code: 'invalid_link' },
  ]);

export const createInvoiceDocument: EntityCreate<CreateDocumentInput> = {
  ...(createDocument.references ? { references: createDocument.references } : {}),
  run(w, input) {
    if (!linksInvoice(input.linkedTo)) throw invoiceOnly();
    return createDocument.run(w, input);
  },
};

async function assertNotRendered(w: Parameters<EntityRemove>[0], id: string): Promise<void> {
  const doc = await w.tx.document.findFirst({ where: { id } });
  if (doc?.uploadId.startsWith('invoicepdf:')) {
    throw new BusinessRuleError(`document ${id} is the rendered PDF of a sent invoice; it is kept with the invoice`);
  }
}

export const updateInvoiceDocument: EntityUpdate<UpdateDocumentInput> = {
  ...(updateDocument.references ? { references: updateDocument.references } : {}),
  async run(w, id, input) {
    if (input.linkedTo !== undefined && !linksInvoice(input.linkedTo)) throw invoiceOnly();
    if (input.uploadQueueId !== undefined || input.linkedTo !== undefined) await assertNotRendered(w, id);
    return updateDocument.run(w, id, input);
  },
};

export const removeInvoiceDocument: EntityRemove = async (w, id) => {
  await assertNotRendered(w, id);
  await removeDocument(w, id);
};
