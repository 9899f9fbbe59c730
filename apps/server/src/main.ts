import { serveFromEnv } from '@bo/runtime';
import { serverMounts, startService } from './start.js';

// the default start: v2, v3 and /trpc on one port, with the worker in the same process unless RUN_WORKER=false
await serveFromEnv('Business operations service', serverMounts, startService);
