import { configFromEnv, runMain, startCore } from '@bo/runtime';
import { startWorker } from './worker.js';

/**
 * A worker process on its own: DATABASE_URL, or the embedded database of a
 * running service in DATA_DIR. It serves no HTTP and seeds nothing.
 * SIGTERM finishes the jobs in flight, then exits.
 */
const config = configFromEnv();
await runMain(
  async () => {
    const core = await startCore(config, { jobs: startWorker, work: true, seedDemo: false });
    core.log.info('worker started');
    return core;
  },
  { stop: (core) => core.close(), stopping: 'finishing the jobs in flight' },
);
