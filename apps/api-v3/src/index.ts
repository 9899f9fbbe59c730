export { createV3Router } from './app.js';
export type { V3Options } from './app.js';
export type { Endpoint } from './endpoints/index.js';
export { endpoints } from './endpoints/index.js';
export { v3Mount } from './mount.js';
