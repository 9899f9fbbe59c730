export { createHttpApp } from './app.js';
export { configFromEnv } from './config.js';
export type { ServiceConfig } from './config.js';
export { startService } from './start.js';
export type { RunningService } from './start.js';
