import type { Models } from '@bo/db';
import { v2DateTime, v3DateTime } from '../shared/format.js';
import type { Db, ResourceDefinition } from '../shared/resources/definition.js';
import { browserDownloadPath } from '../uploads/upload.view.js';
import { createDocument } from './create-document.js';
import {
  type CreateDocumentInput,
  createDocumentSchema,
  type UpdateDocumentInput,
  updateDocumentSchema,
} from './document.schema.js';
import { documentSql } from './document.sql.js';
import { linkedToV2, linkedToV3 } from './linked-to.js';
import { removeDocument } from './remove-document.js';
import { updateDocument } from './update-document.js';

export type DocumentRow = Models.DocumentModel & { documentType: Models.DocumentTypeModel | null };

export async function loadDocuments(db: Db, ids: string[]): Promise<DocumentRow[]> {
  return db.document.findMany({ where: { id: { in: ids } }, include: { documentType: true } });
}

/** v2 read shape (reference GetDocument) plus the file's name, size and type. */
export function documentV2(d: DocumentRow): Record<string, unknown> {
  return {
    id: d.id,
    title: d.title,
    download_url: browserDownloadPath('document', d.id),
    document_type: d.documentType ? { id: d.documentType.id, label: d.documentType.label } : null,
    linked_to: linkedToV2(d),
    created_by: d.createdById ? { id: d.createdById, person_id: null, name: null } : null,
    file_name: d.fileName,
    file_size: Number(d.fileSize),
    content_type: d.contentType,
    created_at: v2DateTime(d.createdAt),
    updated_at: v2DateTime(d.updatedAt),
  };
}

export function documentV3(d: DocumentRow): Record<string, unknown> {
  return {
    id: d.id,
    title: d.title,
    documentType: d.documentType ? { id: d.documentType.id, label: d.documentType.label } : null,
    linkedTo: linkedToV3(d),
    fileName: d.fileName,
    fileSize: Number(d.fileSize),
    contentType: d.contentType,
    createdAt: v3DateTime(d.createdAt),
    updatedAt: v3DateTime(d.updatedAt),
  };
}

export const documentResource: ResourceDefinition<DocumentRow, CreateDocumentInput, UpdateDocumentInput> = {
  name: 'documents/document',
  entityType: 'document',
  module: 'documents',
  sql: documentSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: loadDocuments,
  views: { v2: documentV2, v3: documentV3 },
  create: { schema: createDocumentSchema, run: createDocument },
  update: { schema: updateDocumentSchema, run: updateDocument },
  remove: removeDocument,
};

/** invoices/document: the documents linked to an invoice, guarded by the invoices right; read-only here. */
export const invoiceDocumentResource: ResourceDefinition<DocumentRow> = {
  name: 'invoices/document',
  entityType: 'document',
  module: 'invoices',
  sql: documentSql,
  // invoices/document: only the documents linked to an invoice
  scope: () => ({ path: 'linked_to.invoice_id', op: 'eq', value: '*' }),
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: async (db, ids) => (await loadDocuments(db, ids)).filter((d) => d.linkedInvoiceId !== null),
  views: { v2: documentV2, v3: documentV3 },
  remove: false,
};
