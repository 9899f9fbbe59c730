import { configFromEnv, runMain, startMetricsServer } from '@bo/runtime';
import { startJobsAlone } from './jobs-alone.js';

/**
 * A worker process on its own: DATABASE_URL, or the embedded database of a
 * running service in DATA_DIR. It serves no HTTP and seeds nothing, but its
 * metrics when METRICS_PORT is set (job queue depth, webhook deliveries, pools).
 * SIGTERM finishes the jobs in flight, then exits.
 */
const config = configFromEnv();
const core = await runMain(() => startJobsAlone(config), {
  stop: (c) => c.close(),
  stopping: 'finishing the jobs in flight',
});
if (config.metricsPort != null) {
  const metrics = await startMetricsServer({ port: config.metricsPort, host: config.metricsHost ?? '127.0.0.1', own: true });
  core.log.info(`metrics on http://${config.metricsHost ?? '127.0.0.1'}:${metrics.port}/metrics`);
}
