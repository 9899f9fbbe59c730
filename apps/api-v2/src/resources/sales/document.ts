import type { SaleDocument, SaleDocumentType } from '@bo/domain/sales/document/sale-document.entity';
import { browserDownloadPath } from '../../browser-download.js';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names({ document_type_id: 'documentTypeId' });

/** sales/document: the documents linked to a sale (reference: GetDocument), read here; written through documents/document. */
export const saleDocumentV2 = v2Resource<SaleDocument>({
  path: 'sales/document',
  procedures: (c) => c.sales.document,
  names,
  read: (d) => ({
    id: d.id,
    title: d.title,
    download_url: browserDownloadPath('document', d.id),
    document_type: d.documentType ? { id: d.documentType.id, label: d.documentType.label } : null,
    linked_to: d.linkedSaleId ? [{ id: d.linkedSaleId, label: null, type: 'sale', sales_id: d.linkedSaleId }] : [],
    created_by: d.createdById ? { id: d.createdById, person_id: null, name: null } : null,
    file_name: d.fileName,
    file_size: d.fileSize,
    content_type: d.contentType,
    created_at: v2DateTime(d.createdAt),
    updated_at: v2DateTime(d.updatedAt),
  }),
  // a fresh environment has no sales documents: tests/sales-full.test.ts checks the shape
  conformance: false,
});

/** sales/documenttype: the document types meant for sales (reference: GetDocumentType). */
export const saleDocumentTypeV2 = v2Resource<SaleDocumentType>({
  path: 'sales/documenttype',
  procedures: (c) => c.sales.documenttype,
  names,
  read: (t) => ({ ...(names.output(t) as Record<string, unknown>) }),
});
