import { type HttpMount, UNMATCHED_ROUTE } from '@bo/runtime';
import type { Request } from 'express';
import { v2Operations, v2Resources, v2RowOperations } from './resources/index.js';
import { v2RouteTemplates } from './route-rights.js';
import { createBrowserDownloadRouter } from './browser-download.js';
import { createV2Router } from './app.js';
import { mountFileRoutes, readsOwnBody } from './files.js';
import { mountStorageRoutes, readsRawBody } from './resources/storage/storage-routes.js';

const V2 = '/api/v2';
const DOWNLOAD = '/web/download';
const declaredRoute = v2RouteTemplates(v2Resources, v2Operations, v2RowOperations);

/** the route Express matched, below `base` (file and storage routes, the reference): a template, never the raw path */
function expressRoute(req: Request, base: string): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${base}${path}` : UNMATCHED_ROUTE;
}

/** The v2 wire on a process's HTTP app: /api/v2 (with uploads and documents) and the browser downloads. */
export const v2Mount: HttpMount = {
  name: 'v2',
  mount(app, ctx) {
    const { log, guard, maxJsonDepth, idempotency } = ctx;
    const v2 = createV2Router({
      guard,
      log,
      maxJsonDepth,
      idempotency,
      extend: (router, helpers) => {
        mountFileRoutes(router, helpers);
        mountStorageRoutes(router, helpers);
      },
      ownBody: readsOwnBody,
      rawBody: readsRawBody,
    });
    app.use('/api/v2', v2.router);
    // download_url of uploads and documents: for browser sessions, never API tokens
    app.use('/web/download', createBrowserDownloadRouter(ctx));
    ctx.claim(v2.claim);
  },
  routeOf(req, path) {
    if (path === V2 || path.startsWith(`${V2}/`)) {
      const declared = declaredRoute(req, path.slice(V2.length));
      return declared === undefined ? expressRoute(req, V2) : `${V2}${declared}`;
    }
    if (path.startsWith(`${DOWNLOAD}/`)) return expressRoute(req, DOWNLOAD);
    return undefined;
  },
  tryIt: (base, { key, secret }) =>
    `v2: curl -k -g -H 'Authentication-Key: ${key}' -H 'Authentication-Secret: ${secret}' '${base}/api/v2/crm/organization?limit=5&metadata=count'`,
};
