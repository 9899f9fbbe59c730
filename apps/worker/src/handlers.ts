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

/**
 * A long-running consumer that polls its own tables instead of pg-boss queues
 * (webhook delivery needs per-subscription order and sub-second latency).
 * Started with the worker when it works jobs; stop() ends it gracefully.
 */
export interface WorkerLoop {
  name: string;
  start(ctx: JobContext): { stop(): Promise<void> };
}

export const workerLoops: WorkerLoop[] = [webhookDeliveryLoop];
