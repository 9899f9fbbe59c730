import type { PrismaClient } from '@bo/db';
import type { Clock } from './clock.js';
import type { ScopedTransaction as Db } from '@bo/db';
import type { FileStorage } from './storage.js';
import type { WebhookConfig } from '../webhooks/webhook-config.js';

/**
 * The domain's port to background work. A job is enqueued inside the
 * transaction of the change that asks for it: it exists if and only if the
 * change commits. apps/worker implements it with pg-boss.
 */
export interface JobQueue {
  send(name: string, data: Record<string, unknown>, opts: JobSendOptions): Promise<string | null>;
}

export interface JobSendOptions {
  /** the transaction of the change; the job is committed with it */
  tx: Db;
  /** a job with the same key that is still waiting is not queued twice */
  singletonKey?: string;
  startAfterSeconds?: number;
}

/** What a job's domain function receives: no principal, the environment comes with the job's data. */
export interface JobContext {
  prisma: PrismaClient;
  clock: Clock;
  /** upload and document bytes (the upload clean-up removes them) */
  storage?: FileStorage;
  webhooks?: WebhookConfig;
  /** scheduled maintenance: webhook deliveries of an environment in maintenance wait */
  maintenance?: { forEnvironment(environment: string | null): Promise<unknown | null> };
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}
