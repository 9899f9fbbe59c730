import { type HttpMount, UNMATCHED_ROUTE } from '@bo/runtime';
import { createV3Router } from './app.js';
import { endpoints } from './endpoints/index.js';

const V3 = '/api/v3/';
const known = new Map(Object.keys(endpoints).map((name) => [name, [name, `${name}/{id}`] as const]));

/** The v3 wire on a process's HTTP app: /api/v3. */
export const v3Mount: HttpMount = {
  name: 'v3',
  mount(app, { log, guard, maxJsonDepth, idempotency }) {
    app.use('/api/v3', createV3Router({ log, guard, maxJsonDepth, idempotency }));
  },
  /** the endpoint's name (`organization.list`, `organization.get/{id}`); a name no endpoint has is not a label */
  routeOf(req, path) {
    if (!path.startsWith(V3)) return path === '/api/v3' ? UNMATCHED_ROUTE : undefined;
    const slash = path.indexOf('/', V3.length);
    const names = known.get(slash === -1 ? path.slice(V3.length) : path.slice(V3.length, slash));
    if (names) return slash === -1 || slash === path.length - 1 ? names[0] : names[1];
    const route = (req.route as { path?: unknown } | undefined)?.path;
    // the reference (docs.json) is an Express route of its own; /:endpoint is no template
    return typeof route === 'string' && !route.includes(':') ? `/api/v3${route}` : UNMATCHED_ROUTE;
  },
  tryIt: (base, { key, secret }) => `v3: curl -k -H 'Authorization: Bearer ${key}:${secret}' '${base}/api/v3/organization.list'`,
};
