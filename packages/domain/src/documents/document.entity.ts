import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../shared/entity/index.js';
import type { ModuleName } from '../shared/rights.js';
import { documentTypeFor } from './document-type.entity.js';
import { linkedToField } from './linked-to.js';

/** How records embed a document type. */
export const documentTypeReference = z.object({ id: z.string(), label: z.string() });

/** The fields of a document as a module reads them (documents, or invoices for an invoice's documents). */
export function documentFields(module: ModuleName) {
  const types = documentTypeFor(module);
  return {
    id: f.id(),
    title: f.requiredString(),
    documentType: f.ref((): TargetEntity => types, documentTypeReference, { column: 'document_type_id' }),
    linkedTo: linkedToField('document', module),
    /** the user who stored it */
    createdById: f.string({ writable: false, filter: false, sort: false }),
    fileName: f.requiredString({ writable: false }),
    fileSize: f.decimal({ writable: false, filter: false, sort: false }),
    contentType: f.requiredString({ writable: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  };
}

/** A stored file (from a finished upload) linked to one entity. */
export const document = defineEntity({
  type: 'document',
  table: 'document',
  module: 'documents',
  nameField: 'title',
  fields: documentFields('documents'),
});

/** A link to a document kept elsewhere (a URL), linked to one entity. */
export const externalDocument = defineEntity({
  type: 'externaldocument',
  table: 'external_document',
  module: 'documents',
  nameField: 'title',
  fields: {
    id: f.id(),
    title: f.requiredString(),
    url: f.requiredString(),
    documentType: f.ref((): TargetEntity => documentTypeFor('documents'), documentTypeReference, { column: 'document_type_id' }),
    linkedTo: linkedToField('external_document', 'documents'),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export type Document = z.infer<typeof document.schema>;
export type ExternalDocument = z.infer<typeof externalDocument.schema>;
