import type { WriteContext } from '../shared/entity/index.js';
import { BusinessRuleError } from '../shared/errors.js';

/** The upload id prefix of the documents the service renders itself (a sent invoice's PDF). */
export const RENDERED_INVOICE_PDF = 'invoicepdf:';

/**
 * A document the service rendered for a record (the PDF of a sent invoice) is kept with
 * that record: its file is not replaced, it is not moved to another record, and it is not
 * deleted, whichever door the write comes through (documents/document, invoices/document, …).
 */
export async function assertNotRendered(w: WriteContext, id: string): Promise<void> {
  const doc = await w.tx.document.findFirst({ where: { id } });
  if (doc?.uploadId.startsWith(RENDERED_INVOICE_PDF)) {
    throw new BusinessRuleError(`document ${id} is the rendered PDF of a sent invoice; it is kept with the invoice`);
  }
}
