import { type LegacyEndpoint, legacyEndpoints } from './legacy.js';
import { organizationEndpoints } from './organization.js';
import { saleEndpoints } from './sale.js';
import type { AnyCommandEndpoint, GetEndpoint, ListEndpoint } from './types.js';

// biome-ignore lint/suspicious/noExplicitAny: the table holds endpoints of any row type
export type Endpoint = ListEndpoint<any> | GetEndpoint<any> | AnyCommandEndpoint | LegacyEndpoint;

/** Every v3 endpoint by name: `{entity}.{action}`. */
export const endpoints: Record<string, Endpoint> = {
  ...organizationEndpoints,
  ...saleEndpoints,
  ...legacyEndpoints,
};
export type { EndpointDoc, NamedSchema } from './types.js';
