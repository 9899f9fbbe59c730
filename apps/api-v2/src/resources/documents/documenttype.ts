import type { DocumentType } from '@bo/domain/documents/document-type.entity';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names();
/** reference data: read-only, v2 has no writes for it */
const methods = { create: false, update: false, delete: false };

/** documents/documenttype (reference: GetDocumentType). */
export const documentTypeV2 = v2Resource<DocumentType>({
  path: 'documents/documenttype',
  procedures: (c) => c.documents.documenttype,
  names,
  methods,
  read: (d) => names.output(d) as Record<string, unknown>,
});
