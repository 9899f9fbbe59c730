import { serveFromEnv } from '@bo/runtime';
import { startJobsAlone } from '@bo/worker';
import { serverMounts, startService } from './start.js';

// the default start: v2, v3 and /trpc on one port; the background jobs in a process of their own on a
// PostgreSQL server (in this one on the embedded database, or with WORKER_IN_PROCESS=true), none with RUN_WORKER=false
await serveFromEnv('Business operations service', serverMounts, startService, startJobsAlone);
