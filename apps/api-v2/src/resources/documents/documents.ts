import type { Document, ExternalDocument } from '@bo/domain/documents/document.entity';
import { browserDownloadPath } from '../../browser-download.js';
import { v2Names } from '../v2-names.js';
import { type AnyV2Resource, type V2Resource, v2Resource } from '../v2-resource.js';
import { documentTypeV2 } from './documenttype.js';
import { LINK_NAMES, linkedToV2 } from './linked-to.js';

export const documentNames = v2Names(LINK_NAMES);

const typeV2 = (t: { id: string; label: string } | null) => (t ? { id: t.id, label: t.label } : null);

/** reference GetDocument, plus the file's name, size and type. */
function documentV2(d: Document): Record<string, unknown> {
  return {
    id: d.id,
    title: d.title,
    download_url: browserDownloadPath('document', d.id),
    document_type: typeV2(d.documentType),
    linked_to: linkedToV2(d.linkedTo),
    created_by: d.createdById ? { id: d.createdById, person_id: null, name: null } : null,
    file_name: d.fileName,
    file_size: d.fileSize,
    content_type: d.contentType,
    created_at: documentNames.output(d.createdAt),
    updated_at: documentNames.output(d.updatedAt),
  };
}

export const documentV2Resource = v2Resource<Document>({
  path: 'documents/document',
  procedures: (c) => c.documents.document,
  names: documentNames,
  referencePaths: { updateOnCollection: true },
  read: documentV2,
});

/**
 * An area's view of the document store (crm/document, projects/document, …): the
 * same shape and the same writes as documents/document, the reference's PUT on the
 * collection with the id in the body included.
 */
export function areaDocumentV2(path: string, procedures: V2Resource<Document>['procedures']): V2Resource<Document> {
  return v2Resource<Document>({
    path,
    procedures,
    names: documentNames,
    referencePaths: { updateOnCollection: true },
    read: documentV2,
    // a fresh environment has no documents in an area: tests/area-documents.test.ts checks the shape
    conformance: false,
  });
}

/** invoices/document: the documents linked to an invoice (the PDF a sent invoice was rendered into is kept). */
export const invoiceDocumentV2 = areaDocumentV2('invoices/document', (c) => c.invoices.document);

export const externalDocumentV2 = v2Resource<ExternalDocument>({
  path: 'documents/externaldocument',
  procedures: (c) => c.documents.externaldocument,
  names: documentNames,
  read: (d) => ({
    id: d.id,
    title: d.title,
    url: d.url,
    document_type: typeV2(d.documentType),
    linked_to: linkedToV2(d.linkedTo),
    created_at: documentNames.output(d.createdAt),
    updated_at: documentNames.output(d.updatedAt),
  }),
});

export const documentResourcesV2: AnyV2Resource[] = [documentV2Resource, externalDocumentV2, invoiceDocumentV2, documentTypeV2];
