import { serveAlone } from '@bo/runtime';
import { startWorker } from '@bo/worker';
import { v2Mount } from './mount.js';

// the v2 API alone (/api/v2 and /healthz over HTTPS): jobs are enqueued here and worked by apps/worker
await serveAlone('Business operations API v2', [v2Mount], startWorker);
