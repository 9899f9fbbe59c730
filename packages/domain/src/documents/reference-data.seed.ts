import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';

/** Document types a new environment starts with. */
export const seedDocumentTypes: EnvironmentSeeder = async (db) => {
  const types = [
    { label: 'General', isVisibleOnAll: true },
    { label: 'Contract', isForEmployee: true },
    { label: 'Invoice', isForDebtor: true },
    { label: 'Quote' },
    { label: 'Purchase invoice', isForProject: true },
  ];
  await db.documentType.createMany({
    data: types.map((t) => ({ ...t, id: newEntityId('documenttype'), environmentId: SCOPED_ENVIRONMENT })),
  });
};
