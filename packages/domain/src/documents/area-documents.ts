import type { z } from 'zod';
import { defineEntity, entityCreate, entityDelete, entityQueries, entityUpdate } from '../shared/entity/index.js';
import type { ModuleName } from '../shared/rights.js';
import { router } from '../trpc.js';
import { createDocument } from './create-document.js';
import { documentFields } from './document.entity.js';
import { createDocumentInput, updateDocumentInput } from './document.schema.js';
import { type DocumentType, type documentType, documentTypeFor } from './document-type.entity.js';
import { LINK_KEY_NAMES, type LinkKey, type LinkedToInput } from './linked-to.js';
import { removeDocument } from './remove-document.js';
import { updateDocument } from './update-document.js';

/**
 * One area's view of the document store (crm/document, projects/document,
 * sales/document, …): the same rows and the same write use cases, guarded by the
 * area's right and limited to documents linked to the area's entities. Writes may
 * only link a document to one of those entities: otherwise a module right would
 * let a caller attach files to records it cannot see.
 */
export interface DocumentArea {
  module: ModuleName;
  /** the link keys of the area's entities */
  links: readonly LinkKey[];
  /** the document types offered in the area */
  typeFlags: readonly (keyof DocumentType & `is${string}`)[];
}

function linkKeyOf(input: LinkedToInput): LinkKey | undefined {
  const o = Array.isArray(input) ? input[0] : input;
  return LINK_KEY_NAMES.find((k) => o?.[k]);
}

function linkedInArea(area: DocumentArea) {
  const names = area.links.map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace('sale_id', 'sales_id'));
  return {
    check: (linkedTo: LinkedToInput | undefined) => {
      if (linkedTo === undefined) return true;
      const key = linkKeyOf(linkedTo);
      return key !== undefined && area.links.includes(key);
    },
    message: `a document here is linked to one of: ${names.join(', ')}`,
  };
}

export function areaDocumentEntity(area: DocumentArea) {
  const anyOf = area.links.map((k) => ({ path: `linkedTo.${k}`, op: 'eq' as const, value: '*' }));
  return defineEntity({
    type: 'document',
    table: 'document',
    module: area.module,
    nameField: 'title',
    fields: documentFields(area.module),
    scope: () => (anyOf.length === 1 ? (anyOf[0] as (typeof anyOf)[number]) : { or: anyOf }),
  });
}

export function areaDocumentTypeEntity(area: DocumentArea): typeof documentType {
  const anyOf = area.typeFlags.map((flag) => ({ path: flag, op: 'eq' as const, value: 'true' }));
  return {
    ...documentTypeFor(area.module),
    scope: () => (anyOf.length === 1 ? (anyOf[0] as (typeof anyOf)[number]) : { or: anyOf }),
  };
}

/** The area's `document` (list, get, create, update, delete) and `documenttype` (read) procedures. */
export function areaDocumentRouters(area: DocumentArea) {
  const entity = areaDocumentEntity(area);
  const inArea = linkedInArea(area);
  const create = createDocumentInput.refine((i) => inArea.check(i.linkedTo), {
    message: inArea.message,
    path: ['linkedTo'],
  });
  const update = updateDocumentInput.refine((i) => inArea.check(i.linkedTo), {
    message: inArea.message,
    path: ['linkedTo'],
  });
  return {
    document: router({
      ...entityQueries(entity),
      create: entityCreate(entity, create, createDocument),
      update: entityUpdate(entity, update, updateDocument),
      delete: entityDelete(entity, removeDocument),
    }),
    documenttype: router(entityQueries(areaDocumentTypeEntity(area))),
  };
}

export type AreaDocument = z.infer<ReturnType<typeof areaDocumentEntity>['schema']>;

export const DOCUMENT_AREAS = {
  crm: {
    module: 'crm',
    links: ['organizationId', 'personId'],
    typeFlags: ['isForCrm', 'isForContact', 'isForDebtor', 'isVisibleOnAll'],
  },
  projects: { module: 'projects', links: ['projectId'], typeFlags: ['isForProject', 'isVisibleOnAll'] },
  sales: { module: 'sales', links: ['saleId'], typeFlags: ['isForSale', 'isVisibleOnAll'] },
  // employee files are personal: only the types meant for employees, not those visible on all
  hrm: { module: 'hrm', links: ['employeeId'], typeFlags: ['isForEmployee'] },
  invoices: { module: 'invoices', links: ['invoiceId'], typeFlags: ['isForInvoice'] },
} as const satisfies Record<string, DocumentArea>;
