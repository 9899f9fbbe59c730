import { serveAlone } from '@bo/runtime';
import { startWorker } from '@bo/worker';
import { v3Mount } from './mount.js';

// the v3 API alone (/api/v3 and /healthz over HTTPS): jobs are enqueued here and worked by apps/worker
await serveAlone('Business operations API v3', [v3Mount], startWorker);
