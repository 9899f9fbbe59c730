import type { HttpMount } from '@bo/runtime';
import { createBrowserDownloadRouter } from './browser-download.js';
import { createV2Router } from './app.js';
import { mountFileRoutes, readsOwnBody } from './files.js';
import { mountStorageRoutes, readsRawBody } from './resources/storage/storage-routes.js';

/** The v2 wire on a process's HTTP app: /api/v2 (with uploads and documents) and the browser downloads. */
export const v2Mount: HttpMount = {
  name: 'v2',
  mount(app, ctx) {
    const { log, guard, maxJsonDepth, idempotency } = ctx;
    app.use(
      '/api/v2',
      createV2Router({
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
      }),
    );
    // download_url of uploads and documents: for browser sessions, never API tokens
    app.use('/web/download', createBrowserDownloadRouter(ctx));
  },
  tryIt: (base, { key, secret }) =>
    `v2: curl -k -g -H 'Authentication-Key: ${key}' -H 'Authentication-Secret: ${secret}' '${base}/api/v2/crm/organization?limit=5&metadata=count'`,
};
