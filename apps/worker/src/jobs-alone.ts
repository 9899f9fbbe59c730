import { type ServiceConfig, startCore } from '@bo/runtime';
import { startWorker } from './worker.js';

/** The background jobs alone on the database: no HTTP, no demo seeding (a worker process, or a start's jobs process). */
export async function startJobsAlone(config: ServiceConfig) {
  const core = await startCore(config, { jobs: startWorker, work: true, seedDemo: false });
  core.log.info('worker started');
  return core;
}
