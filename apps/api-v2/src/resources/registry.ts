import { resources } from '@bo/domain';
import { v2Resources } from './index.js';

/**
 * Every v2 resource path mounted, whether declared as an entity mapping here or
 * still by the domain's earlier registry (tests walk them all, e.g. for conformance).
 */
export const mountedResources: { name: string }[] = [
  ...v2Resources.map((r) => ({ name: r.path })),
  ...resources.map((r) => ({ name: r.name })),
];
