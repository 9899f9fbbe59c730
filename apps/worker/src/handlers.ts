import type { NotificationListener } from '@bo/db';
import type { JobContext } from '@bo/domain';
import { invoiceDraftRequestHandler } from './handlers/invoice-draft-request.js';
import { expireUploadsHandler } from './handlers/expire-uploads.js';
import { refreshStatisticsHandler } from './handlers/refresh-statistics.js';
import { webhookDeliveryLoop } from './handlers/webhook-delivery.js';

/**
 * A kind of background job. Each module adds its handlers to `jobHandlers`
 * below, in a file of its own under handlers/; the worker creates the queues
 * and works them.
 */
export interface JobHandler {
  name: string;
  /** retries with exponential back-off; pg-boss keeps the attempt count */
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** a job running longer than this is considered lost and retried */
  expireInSeconds?: number;
  /** cron expression (UTC) for recurring jobs such as clean-ups */
  schedule?: string;
  /** jobs fetched per poll */
  batchSize?: number;
  pollingIntervalSeconds?: number;
  handle(job: { id: string; data: Record<string, unknown> }, ctx: JobContext): Promise<void>;
}

export const jobHandlers: JobHandler[] = [invoiceDraftRequestHandler, expireUploadsHandler, refreshStatisticsHandler];

/** What the worker gives its loops besides the job context. */
export interface LoopEnvironment {
  /** the process's LISTEN connection; null where none is held (the embedded database, DB_LISTEN=false) */
  notifications: NotificationListener | null;
}

/**
 * A long-running consumer of its own tables instead of pg-boss queues (webhook
 * delivery needs per-subscription order and latency in milliseconds): it wakes on
 * notifications and polls as the fallback. Started with the worker when it works
 * jobs; stop() ends it gracefully.
 */
export interface WorkerLoop {
  name: string;
  start(ctx: JobContext, env: LoopEnvironment): { stop(): Promise<void> };
}

export const workerLoops: WorkerLoop[] = [webhookDeliveryLoop];
