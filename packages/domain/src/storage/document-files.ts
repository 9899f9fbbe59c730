import type { Models } from '@bo/db';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { hasRight, requireRight } from '../shared/rights.js';
import type { UserContext } from '../trpc.js';
import { requireStorage } from '../uploads/require-storage.js';
import { etagOf, type StoredFile } from './stored-file.js';

/**
 * A document the token's user may read: the documents read right, or the
 * invoices read right for a document linked to an invoice (as
 * /documents/download/{id} has it), or the costs read right for an expense's
 * attachment. Without any of them the answer is 403, whether or not it exists.
 */
export async function readableDocument(
  ctx: UserContext,
  id: unknown,
  via: 'documents' | 'costs' = 'documents',
): Promise<Models.DocumentModel> {
  if (typeof id !== 'string' || id.trim() === '') {
    throw new ValidationError([{ path: 'id', message: 'the id of the document is required', code: 'required' }]);
  }
  const rights = ctx.principal.rights;
  const doc = await ctx.db.document.findFirst({ where: { id } });
  const attachedToExpense = async () => (await ctx.db.expenseAttachment.count({ where: { documentId: id } })) > 0;
  const may =
    doc &&
    (via === 'costs'
      ? hasRight(rights, 'costs', 'read') && (await attachedToExpense())
      : hasRight(rights, 'documents', 'read') || (doc.linkedInvoiceId !== null && hasRight(rights, 'invoices', 'read')));
  if (!may) {
    requireRight(rights, via, 'read');
    throw new NotFoundError('document', id);
  }
  return doc;
}

/** The bytes of a document as a stored file; 404 when its bytes are gone. */
export async function documentFile(ctx: UserContext, doc: Models.DocumentModel): Promise<StoredFile> {
  const storage = requireStorage(ctx);
  const size = await storage.size(doc.storageKey);
  if (size === null) throw new NotFoundError('document file', doc.id);
  return {
    fileName: doc.fileName,
    contentType: doc.contentType,
    size,
    // a document's bytes are those of its upload, written once: key and size name them
    etag: etagOf(doc.storageKey, size),
    open: (range) => storage.createReadStream(doc.storageKey, range),
  };
}

/** GET storage/download (and getfile, loadfile, filex, documenteditordownload, downloadasattachment). */
export async function openStoredDocument(ctx: UserContext, id: unknown): Promise<StoredFile> {
  return documentFile(ctx, await readableDocument(ctx, id));
}

/**
 * GET storage/costsattachment: an attachment of an expense (costs/expense `attachments`),
 * read with the costs right: `id` names one of them, `expense_id` answers the newest.
 */
export async function openExpenseAttachment(ctx: UserContext, input: { expenseId?: unknown; id?: unknown }): Promise<StoredFile> {
  requireRight(ctx.principal.rights, 'costs', 'read');
  if (typeof input.id === 'string' && input.id) return documentFile(ctx, await readableDocument(ctx, input.id, 'costs'));
  if (typeof input.expenseId !== 'string' || input.expenseId.trim() === '') {
    throw new ValidationError([{ path: 'expense_id', message: 'the id of the expense is required', code: 'required' }]);
  }
  const doc = await ctx.db.document.findFirst({
    where: { expenseAttachments: { some: { expenseId: input.expenseId } } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  if (!doc) throw new NotFoundError('attachment of expense', input.expenseId);
  return documentFile(ctx, doc);
}

/**
 * The bytes of a finished upload (its download_url): only for the user who
 * uploaded it, with the documents read right; an upload is nobody else's
 * until it becomes a document.
 */
export async function openUploadFile(ctx: UserContext, uploadQueueId: unknown): Promise<StoredFile> {
  requireRight(ctx.principal.rights, 'documents', 'read');
  if (typeof uploadQueueId !== 'string' || uploadQueueId === '') throw new NotFoundError('upload');
  const storage = requireStorage(ctx);
  const u = await ctx.db.chunkedUpload.findFirst({
    where: { uploadQueueId, state: 'done', userId: ctx.principal.userId },
  });
  const size = u ? await storage.size(u.storageKey) : null;
  if (!u || size === null) throw new NotFoundError('upload', uploadQueueId);
  return {
    fileName: u.fileName,
    contentType: u.contentType ?? 'application/octet-stream',
    size,
    etag: etagOf(u.storageKey, size),
    open: (range) => storage.createReadStream(u.storageKey, range),
  };
}
