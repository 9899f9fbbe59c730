import type { TenantReader } from '@bo/db';
import { BusinessRuleError } from '../shared/errors.js';

/** The upload id prefix of the documents the service renders itself (a sent invoice's PDF). */
export const RENDERED_INVOICE_PDF = 'invoicepdf:';

/**
 * A document the service rendered for a record (the PDF of a sent invoice) is kept with
 * that record: its file is not replaced, it is not moved to another record, and it is not
 * deleted, whichever door the write comes through (documents/document, invoices/document, …).
 * Answers the document's upload id (null when there is no such document), read once.
 */
export async function assertNotRendered(sql: TenantReader, id: string): Promise<string | null> {
  const [doc] = await sql.read<{ upload_id: string }>('SELECT upload_id FROM document WHERE environment_id = $1 AND id = $2', [
    id,
  ]);
  if (doc?.upload_id.startsWith(RENDERED_INVOICE_PDF)) {
    throw new BusinessRuleError(`document ${id} is the rendered PDF of a sent invoice; it is kept with the invoice`);
  }
  return doc?.upload_id ?? null;
}
