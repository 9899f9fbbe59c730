import { seedCrmReferenceData } from './crm/reference-data.seed.js';
import { seedDocumentTypes } from './documents/reference-data.seed.js';
import type { EnvironmentSeeder } from './shared/environment-seeders.js';
import { seedMessageTypes } from './timeline/reference-data.seed.js';

/** Run in order for every new environment; each module appends its own. */
export const environmentSeeders: EnvironmentSeeder[] = [seedCrmReferenceData, seedDocumentTypes, seedMessageTypes];
