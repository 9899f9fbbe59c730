export { serverMounts, startService } from './start.js';
export type { RunningService } from './start.js';
export { BODY_LIMIT_BYTES, trpcMount } from './trpc.js';
export { configFromEnv, DEFAULT_LIMITS } from '@bo/runtime';
export type { ServiceConfig, ServiceLimits } from '@bo/runtime';
