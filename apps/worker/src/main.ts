import { configFromEnv, runMain } from '@bo/runtime';
import { startJobsAlone } from './jobs-alone.js';

/**
 * A worker process on its own: DATABASE_URL, or the embedded database of a
 * running service in DATA_DIR. It serves no HTTP and seeds nothing.
 * SIGTERM finishes the jobs in flight, then exits.
 */
const config = configFromEnv();
await runMain(() => startJobsAlone(config), { stop: (core) => core.close(), stopping: 'finishing the jobs in flight' });
