import { seedCrmLookups, seedCrmReferenceData } from './crm/reference-data.seed.js';
import { seedCustomFieldReferenceData } from './customfields/customfields.seed.js';
import { seedDocumentTypes } from './documents/reference-data.seed.js';
import type { EnvironmentSeeder } from './shared/environment-seeders.js';
import { seedCostTypes } from './costs/reference-data.seed.js';
import { seedHourTypes } from './hours/reference-data.seed.js';
import { seedProjectReferenceData } from './projects/reference-data.seed.js';
import { seedDefaultServices } from './services/reference-data.seed.js';

import { seedMessageTypes } from './timeline/reference-data.seed.js';
import { seedDefaultWorkflows } from './workflows/default-workflows.seed.js';
import { seedSalesLookups } from './sales/lookups/reference-data.seed.js';
import { seedInvoicingReferenceData } from './invoices/reference-data.seed.js';
import { seedHrmReferenceData } from './hrm/reference-data.seed.js';
import { seedApprovalStatuses } from './hours/approval/approval-statuses.seed.js';

/** Run in order for every new environment; each module appends its own. */
export const environmentSeeders: EnvironmentSeeder[] = [
  seedCrmReferenceData,
  seedCrmLookups,
  seedCustomFieldReferenceData,
  // projects/v3: hour and cost types first, the default services are made of them
  seedHourTypes,
  seedCostTypes,
  seedProjectReferenceData,
  seedDefaultServices,
  seedDocumentTypes,
  seedMessageTypes,
  seedDefaultWorkflows,
  seedSalesLookups,
  seedInvoicingReferenceData,
  seedHrmReferenceData,
  seedApprovalStatuses,
];
