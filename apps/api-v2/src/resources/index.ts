import { organizationV2 } from './crm/organization.js';
import type { AnyV2Resource } from './v2-resource.js';

/** Every v2 resource declared the new way; the rest are still mounted from the domain's registry. */
export const v2Resources: AnyV2Resource[] = [organizationV2];
