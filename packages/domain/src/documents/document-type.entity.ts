import type { z } from 'zod';
import type { ModuleName } from '../shared/rights.js';
import { defineEntity, f } from '../shared/entity/index.js';

/** A kind of document and where it may be used; reference data, read-only. */
export const documentType = defineEntity({
  type: 'documenttype',
  table: 'document_type',
  module: 'documents',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: {
    id: f.id(),
    label: f.requiredString(),
    canHaveAttachment: f.boolean(),
    isForCrm: f.boolean(),
    isForContact: f.boolean(),
    isForSale: f.boolean(),
    isForDebtor: f.boolean(),
    isForProject: f.boolean(),
    isForSubscription: f.boolean(),
    isForEmployee: f.boolean(),
    isForInvoice: f.boolean(),
    isForMyorganizationprofile: f.boolean(),
    isBlocked: f.boolean(),
    isVisibleOnAll: f.boolean(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export type DocumentType = z.infer<typeof documentType.schema>;

/** The document types as records of another module embed them, read under that module's right. */
export function documentTypeFor(module: ModuleName): typeof documentType {
  return module === documentType.module ? documentType : { ...documentType, module };
}
