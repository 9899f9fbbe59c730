import type { NotificationListener } from '@bo/db';
import { type AnyJobDefinition, type JobContext, type JobPayloadOf, readJobData } from '@bo/domain';
import { invoiceDraftRequestHandler } from './handlers/invoice-draft-request.js';
import { expireUploadsHandler } from './handlers/expire-uploads.js';
import { pruneEventsHandler } from './handlers/prune-events.js';
import { expireIdempotencyKeysHandler } from './handlers/expire-idempotency-keys.js';
import { refreshStatisticsHandler } from './handlers/refresh-statistics.js';
import { webhookDeliveryLoop } from './handlers/webhook-delivery.js';

/** How the worker runs a kind of job (pg-boss's queue settings and polling). */
export interface JobHandlerOptions {
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
}

/**
 * A kind of background job as the worker runs it. Each module adds its handler to
 * `jobHandlers` below, in a file of its own under handlers/, made by `jobHandler` from the
 * job's definition; the worker creates the queues and works them.
 */
export interface JobHandler extends JobHandlerOptions {
  /** the definition's name: the queue's */
  name: string;
  version: number;
  /** the received job's data is checked against the definition before the work starts */
  handle(job: { id: string; data: unknown }, ctx: JobContext): Promise<void>;
}

/**
 * The handler of a job definition: `work` receives the payload the definition declares,
 * checked on receipt (a job whose data does not match fails, and pg-boss retries it).
 */
export function jobHandler<Job extends AnyJobDefinition>(
  job: Job,
  options: JobHandlerOptions,
  work: (job: { id: string; data: JobPayloadOf<Job> }, ctx: JobContext) => Promise<unknown>,
): JobHandler {
  return {
    ...options,
    name: job.name,
    version: job.version,
    async handle(received, ctx) {
      await work({ id: received.id, data: readJobData(job, received.data) }, ctx);
    },
  };
}

export const jobHandlers: JobHandler[] = [
  invoiceDraftRequestHandler,
  expireUploadsHandler,
  refreshStatisticsHandler,
  pruneEventsHandler,
  expireIdempotencyKeysHandler,
];

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
