export { createV2Router } from './app.js';
export type { RateLimiter, V2Helpers, V2Options } from './app.js';
export { parseListParams } from './query-language.js';
export { mountFileRoutes, readsOwnBody } from './files.js';
export { createBrowserDownloadRouter } from './browser-download.js';
export { mountedResources } from './resources/registry.js';
