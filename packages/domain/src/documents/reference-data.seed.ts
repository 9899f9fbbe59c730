import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';

/** Document types a new environment starts with. */
export const seedDocumentTypes: EnvironmentSeeder = async (db) => {
  // every flag named: the table's defaults offer a type to most areas at once
  const none = { isForCrm: false, isForContact: false, isForSale: false, isForProject: false, isForInvoice: false };
  const types = [
    { label: 'General', isVisibleOnAll: true },
    { ...none, label: 'Contract', isForEmployee: true },
    { ...none, label: 'Invoice', isForDebtor: true, isForInvoice: true },
    { ...none, label: 'Quote', isForSale: true },
    { ...none, label: 'Purchase invoice', isForProject: true },
    { ...none, label: 'Correspondence', isForCrm: true, isForContact: true },
  ];
  await db.documentType.createMany({
    data: types.map((t) => ({ ...t, id: newEntityId('documenttype'), environmentId: SCOPED_ENVIRONMENT })),
  });
};
