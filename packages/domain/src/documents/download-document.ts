import type { Readable } from 'node:stream';
import { NotFoundError } from '../shared/errors.js';
import { hasRight, requireRight } from '../shared/rights.js';
import type { UserContext } from '../trpc.js';
import { requireStorage } from '../uploads/require-storage.js';

export interface DocumentFile {
  fileName: string;
  contentType: string;
  size: number;
  stream: Readable;
}

/**
 * GET /documents/download/{id}: the file, streamed from storage. The token's
 * user needs the documents read right, or the invoices read right for a
 * document linked to an invoice (as /invoices/document lists them).
 */
export async function openDocumentFile(ctx: UserContext, id: string): Promise<DocumentFile> {
  const storage = requireStorage(ctx);
  const doc = await ctx.db.document.findFirst({ where: { id } });
  if (!doc) {
    requireRight(ctx.principal.rights, 'documents', 'read');
    throw new NotFoundError('document', id);
  }
  const rights = ctx.principal.rights;
  if (!hasRight(rights, 'documents', 'read') && !(doc.linkedInvoiceId && hasRight(rights, 'invoices', 'read'))) {
    requireRight(rights, 'documents', 'read');
  }
  const size = await storage.size(doc.storageKey);
  if (size === null) throw new NotFoundError('document file', id);
  return { fileName: doc.fileName, contentType: doc.contentType, size, stream: storage.createReadStream(doc.storageKey) };
}
