import type { Models } from '@bo/db';
import { v2DateTime, v3DateTime } from '../shared/format.js';
import type { ResourceDefinition } from '../shared/resources/definition.js';
import { documentTypeSql } from './document.sql.js';

/** documents/documenttype: reference data, read-only (reference GetDocumentType). */
export const documentTypeResource: ResourceDefinition<Models.DocumentTypeModel> = {
  name: 'documents/documenttype',
  entityType: 'documenttype',
  module: 'documents',
  sql: documentTypeSql,
  defaultSort: [{ path: 'label', dir: 'asc' }],
  load: (db, ids) => db.documentType.findMany({ where: { id: { in: ids } } }),
  views: {
    v2: (t) => ({
      id: t.id,
      label: t.label,
      can_have_attachment: t.canHaveAttachment,
      is_for_crm: t.isForCrm,
      is_for_contact: t.isForContact,
      is_for_sale: t.isForSale,
      is_for_debtor: t.isForDebtor,
      is_for_project: t.isForProject,
      is_for_subscription: t.isForSubscription,
      is_for_employee: t.isForEmployee,
      is_for_invoice: t.isForInvoice,
      is_for_myorganizationprofile: t.isForMyorganizationprofile,
      is_blocked: t.isBlocked,
      is_visible_on_all: t.isVisibleOnAll,
      created_at: v2DateTime(t.createdAt),
      updated_at: v2DateTime(t.updatedAt),
    }),
    v3: (t) => ({
      id: t.id,
      label: t.label,
      isBlocked: t.isBlocked,
      createdAt: v3DateTime(t.createdAt),
      updatedAt: v3DateTime(t.updatedAt),
    }),
  },
  remove: false,
};
