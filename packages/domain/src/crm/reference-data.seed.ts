import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';

/** CRM reference data a new environment starts with. */
export const seedCrmReferenceData: EnvironmentSeeder = async (db) => {
  const relationTypes = [
    { label: 'Customer', color: '#2e7d32', type: 'customer' },
    { label: 'Prospect', color: '#f9a825', type: 'prospect' },
    { label: 'Supplier', color: '#1565c0', type: 'supplier' },
    { label: 'Partner', color: '#6a1b9a', type: 'partner' },
  ];
  await db.relationType.createMany({
    data: relationTypes.map((r) => ({ ...r, id: newEntityId('relationtype'), environmentId: SCOPED_ENVIRONMENT })),
  });
  const industries = ['Consultancy', 'Software', 'Marketing', 'Construction', 'Healthcare', 'Education', 'Retail'];
  await db.industry.createMany({
    data: industries.map((name) => ({ name, id: newEntityId('industry'), environmentId: SCOPED_ENVIRONMENT })),
  });
  const sizes = ['1', '2-10', '11-50', '51-200', '201-1000', '1000+'];
  await db.organizationSize.createMany({
    data: sizes.map((name) => ({ name, id: newEntityId('organizationsize'), environmentId: SCOPED_ENVIRONMENT })),
  });
};
