import { type LegacyEndpoint, legacyEndpoints } from './legacy.js';
import { organizationEndpoints } from './organization.js';
import type { TypedEndpoint } from './types.js';

export type Endpoint = TypedEndpoint | LegacyEndpoint;

/** Every v3 endpoint by name: `{entity}.{action}`. */
export const endpoints: Record<string, Endpoint> = {
  ...organizationEndpoints,
  ...legacyEndpoints,
};
export type { EndpointDoc, NamedSchema } from './types.js';
