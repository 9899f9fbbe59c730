export { startWorker } from './worker.js';
export type { RunningWorker, WorkerOptions } from './worker.js';
export { jobHandlers } from './handlers.js';
export type { JobHandler } from './handlers.js';
export { PgBossJobQueue } from './queue.js';
export { startJobsAlone } from './jobs-alone.js';
