import { type LegacyEndpoint, legacyEndpoints } from './legacy.js';
import { invoiceDraftRequestEndpoints } from './invoice-draft-request.js';
import { organizationEndpoints } from './organization.js';
import type { TypedEndpoint } from './types.js';
import { webhookEndpoints } from './webhook.js';

export type Endpoint = TypedEndpoint | LegacyEndpoint;

/** Every v3 endpoint by name: `{entity}.{action}`. */
export const endpoints: Record<string, Endpoint> = {
  ...organizationEndpoints,
  ...invoiceDraftRequestEndpoints,
  ...webhookEndpoints,
  ...legacyEndpoints,
};
export type { EndpointDoc, NamedSchema } from './types.js';
