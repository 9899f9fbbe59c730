import { resources } from '@bo/domain';
import { v2Resources } from './index.js';

/** Every v2 resource path, declared the new way or still mounted from the domain's registry. */
export const v2ResourceNames: { name: string }[] = [
  ...v2Resources.map((r) => ({ name: r.path })),
  ...resources.map((r) => ({ name: r.name })),
];

/**
 * Every v2 resource path mounted, whether declared as an entity mapping here or
 * still by the domain's earlier registry (the conformance test walks them), but those
 * whose own tests check their shape (`conformance: false`).
 */
export const mountedResources: { name: string }[] = [
  ...v2Resources.filter((r) => r.conformance !== false).map((r) => ({ name: r.path })),
  ...resources.map((r) => ({ name: r.name })),
];
