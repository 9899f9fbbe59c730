import { seedCrmLookups, seedCrmReferenceData } from './crm/reference-data.seed.js';
import { seedCustomFieldReferenceData } from './customfields/customfields.seed.js';
import type { EnvironmentSeeder } from './shared/environment-seeders.js';

/** Run in order for every new environment; each module appends its own. */
export const environmentSeeders: EnvironmentSeeder[] = [seedCrmReferenceData, seedCrmLookups, seedCustomFieldReferenceData];
