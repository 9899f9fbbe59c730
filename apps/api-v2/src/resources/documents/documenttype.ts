import type { DocumentType } from '@bo/domain/documents/document-type.entity';
import { v2Names } from '../v2-names.js';
import { type V2Resource, v2Resource } from '../v2-resource.js';

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

/** An area's document types (crm/documenttype, projects/documenttype, …): reference GetDocumentType, which has no dates. */
export function areaDocumentTypeV2(path: string, procedures: V2Resource<DocumentType>['procedures']): V2Resource<DocumentType> {
  return v2Resource<DocumentType>({
    path,
    procedures,
    names,
    methods,
    read: (d) => {
      const { createdAt: _c, updatedAt: _u, ...rest } = d;
      return names.output(rest) as Record<string, unknown>;
    },
  });
}
