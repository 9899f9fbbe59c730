import { v2Resources } from './index.js';

/** Every v2 resource path. */
export const v2ResourceNames: { name: string }[] = [...v2Resources.map((r) => ({ name: r.path }))];

/**
 * Every v2 resource path the conformance test walks: all but those whose own tests
 * check their shape (`conformance: false`).
 */
export const mountedResources: { name: string }[] = [
  ...v2Resources.filter((r) => r.conformance !== false).map((r) => ({ name: r.path })),
];
