import { areaDocumentV2 } from '../documents/documents.js';
import { areaDocumentTypeV2 } from '../documents/documenttype.js';

/** sales/document: the documents linked to a sale (reference: GetDocument, PostDocument, PutDocument). */
export const saleDocumentV2 = areaDocumentV2('sales/document', (c) => c.sales.document);

/** sales/documenttype: the document types meant for sales. */
export const saleDocumentTypeV2 = areaDocumentTypeV2('sales/documenttype', (c) => c.sales.documenttype);
