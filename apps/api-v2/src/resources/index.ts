import { crmV2Resources } from './crm/index.js';
import { organizationV2 } from './crm/organization.js';
import { customFieldsV2Resources } from './customfields/customfields.js';
import { documentsV2Resources } from './documents/index.js';
import { timelineV2Resources } from './timeline/timeline.js';
import type { AnyV2Resource } from './v2-resource.js';

/** Every v2 resource declared the new way; the rest are still mounted from the domain's registry. */
export const v2Resources: AnyV2Resource[] = [organizationV2];
v2Resources.push(...crmV2Resources);
v2Resources.push(...documentsV2Resources);
v2Resources.push(...customFieldsV2Resources);
v2Resources.push(...timelineV2Resources);
