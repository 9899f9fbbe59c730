import type { HttpMount } from '@bo/runtime';
import { createV3Router } from './app.js';

/** The v3 wire on a process's HTTP app: /api/v3. */
export const v3Mount: HttpMount = {
  name: 'v3',
  mount(app, { log, guard, maxJsonDepth, idempotency }) {
    app.use('/api/v3', createV3Router({ log, guard, maxJsonDepth, idempotency }));
  },
  tryIt: (base, { key, secret }) => `v3: curl -k -H 'Authorization: Bearer ${key}:${secret}' '${base}/api/v3/organization.list'`,
};
