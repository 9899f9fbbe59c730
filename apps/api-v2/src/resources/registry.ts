import { resources } from '@bo/domain';
import { v2Resources } from './index.js';

/** Every v2 resource path, declared the new way or still mounted from the domain's registry. */
export const v2ResourceNames: { name: string }[] = [
  ...v2Resources.map((r) => ({ name: r.path })),
  ...resources.map((r) => ({ name: r.name })),
];
