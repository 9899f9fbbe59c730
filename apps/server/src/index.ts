export { serverMounts, startService } from './start.js';
export type { RunningService } from './start.js';
export { trpcMount } from './trpc.js';
export { configFromEnv } from '@bo/runtime';
export type { ServiceConfig } from '@bo/runtime';
