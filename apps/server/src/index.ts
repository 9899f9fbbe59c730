export { createHttpApp } from './app.js';
export { configFromEnv } from './config.js';
export type { ServiceConfig, ServiceLimits } from './config.js';
export { DEFAULT_LIMITS } from './config.js';
export { startService } from './start.js';
export type { RunningService } from './start.js';
