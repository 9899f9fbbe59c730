import { organizationV2 } from './crm/organization.js';
import { saleCustomFieldGroupV2, saleCustomFieldV2 } from './sales/sale-custom-field.js';
import { saleV2Resource } from './sales/sale.js';
import type { AnyV2Resource, V2Operation } from './v2-resource.js';

/** Every v2 resource declared the new way; the rest are still mounted from the domain's registry. */
export const v2Resources: AnyV2Resource[] = [organizationV2];
v2Resources.push(saleV2Resource, saleCustomFieldV2, saleCustomFieldGroupV2);

/** Operations of their own path on one row (e.g. sales/quoteemail/{id}). */
export const v2Operations: V2Operation[] = [];
