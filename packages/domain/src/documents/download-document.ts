import { Readable } from 'node:stream';
import { z } from 'zod';
import { NotFoundError } from '../shared/errors.js';
import { hasRight, requireRight } from '../shared/rights.js';
import type { UserContext } from '../trpc.js';
import { requireStorage } from '../uploads/require-storage.js';

/** A document's file: its name, type and size, and its bytes as a stream. */
export const documentFileSchema = z.object({
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  stream: z.custom<Readable>((v) => v instanceof Readable, 'a readable stream'),
});
export type DocumentFile = z.infer<typeof documentFileSchema>;

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
