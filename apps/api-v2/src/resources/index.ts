import { organizationV2 } from './crm/organization.js';
import { saleCustomFieldGroupV2, saleCustomFieldV2 } from './sales/sale-custom-field.js';
import { saleV2Resource } from './sales/sale.js';
import type { AnyV2Resource } from './v2-resource.js';

/** Every v2 resource declared the new way; the rest are still mounted from the domain's registry. */
export const v2Resources: AnyV2Resource[] = [organizationV2];
v2Resources.push(saleV2Resource, saleCustomFieldV2, saleCustomFieldGroupV2);
