import { z } from 'zod';
import { type documentType, documentTypeFor } from '../../documents/document-type.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';

/**
 * Sales documents (v2 sales/document, sales/documenttype): the document store's rows
 * linked to a sale, and the document types meant for sales, read under the sales
 * right. Documents are written through the document store (documents/document).
 */
export const saleDocumentType: typeof documentType = {
  ...documentTypeFor('sales'),
  scope: () => ({ path: 'isForSale', op: 'eq', value: 'true' }),
};
export type SaleDocumentType = z.infer<typeof saleDocumentType.schema>;

export const saleDocument = defineEntity({
  type: 'document',
  table: 'document',
  module: 'sales',
  nameField: 'title',
  scope: () => ({ path: 'linkedSaleId', op: 'eq', value: '*' }),
  fields: {
    id: f.id(),
    title: f.requiredString(),
    documentType: f.ref((): TargetEntity => saleDocumentType, z.object({ id: z.string(), label: z.string() }), {
      column: 'document_type_id',
    }),
    linkedSaleId: f.string(),
    createdById: f.string(),
    fileName: f.requiredString(),
    fileSize: f.computed('number', z.number(), (t) => `${t}.file_size::float8`),
    contentType: f.requiredString(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type SaleDocument = z.infer<typeof saleDocument.schema>;
