import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { FIRST_PROFILE } from './myorganization/myorganizationprofile.entity.js';
import { newEntityId } from '../shared/ids.js';

/** CRM reference data a new environment starts with. */
export const seedCrmReferenceData: EnvironmentSeeder = async (db) => {
  const relationTypes = [
    // the system labels integrations compare, and the readable names (docs/fidelity.md)
    { label: 'Relationtype_customer', name: 'Customer', color: '#2e7d32', type: 'customer' },
    { label: 'Relationtype_prospect', name: 'Prospect', color: '#f9a825', type: 'prospect' },
    { label: 'Relationtype_supplier', name: 'Supplier', color: '#1565c0', type: 'supplier' },
    { label: 'Relationtype_partner', name: 'Partner', color: '#6a1b9a', type: 'partner' },
    { label: 'Relationtype_own_company', name: 'Own company', color: '#37474f', type: 'own_company' },
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

/** Countries, genders, interests, mailing lists, document types and the main company profile. */
export const seedCrmLookups: EnvironmentSeeder = async (db) => {
  const countries = [
    ['Netherlands', 'NL', 'nl'],
    ['Belgium', 'BE', 'nl'],
    ['Germany', 'DE', 'de'],
    ['France', 'FR', 'fr'],
    ['United Kingdom', 'GB', 'en'],
    ['United States', 'US', 'en'],
    ['Spain', 'ES', 'es'],
    ['Italy', 'IT', 'it'],
    ['Luxembourg', 'LU', 'fr'],
    ['Denmark', 'DK', 'da'],
  ] as const;
  await db.country.createMany({
    data: countries.map(([name, countryCode, languageCode]) => ({
      id: newEntityId('country'),
      environmentId: SCOPED_ENVIRONMENT,
      name,
      countryCode,
      languageCode,
    })),
  });
  await db.gender.createMany({
    data: ['Male', 'Female', 'Unknown'].map((name) => ({ id: newEntityId('gender'), environmentId: SCOPED_ENVIRONMENT, name })),
  });
  const interests = [
    ['Newsletter', 'newsletter'],
    ['Events', 'events'],
    ['Webinars', 'webinars'],
    ['Product updates', 'product_updates'],
  ] as const;
  await db.interest.createMany({
    data: interests.map(([name, apiName]) => ({ id: newEntityId('interest'), environmentId: SCOPED_ENVIRONMENT, name, apiName })),
  });
  await db.mailingList.createMany({
    data: ['Newsletter', 'Customer events'].map((name) => ({
      id: newEntityId('mailinglist'),
      environmentId: SCOPED_ENVIRONMENT,
      name,
    })),
  });
  // document types are seeded by the documents module, which owns them
  await db.myOrganizationProfile.create({
    data: { id: newEntityId('myorganizationprofile'), environmentId: SCOPED_ENVIRONMENT, ...FIRST_PROFILE },
  });
};
