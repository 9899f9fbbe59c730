import type { z } from 'zod';
import type { PrismaClient } from '@bo/db';
import type { Clock } from './clock.js';
import type { TenantReader } from '@bo/db';
import type { FileStorage } from './storage.js';
import type { WebhookConfig } from '../webhooks/webhook-config.js';

/**
 * A kind of background job, declared once: its queue's name, the version of its payload and
 * the payload's schema. The sender (`JobQueue.send`) and the worker's handler are both typed
 * by it, so a job's name or payload cannot be misspelled on either side, and the payload is
 * checked when the job is sent and again when it is received.
 */
export interface JobDefinition<Name extends string = string, Payload extends z.ZodType = z.ZodType> {
  readonly name: Name;
  /** raised when the payload changes in a way an older worker cannot read */
  readonly version: number;
  readonly payload: Payload;
}

export type AnyJobDefinition = JobDefinition<string, z.ZodType>;
/** the payload a handler of this job receives */
export type JobPayloadOf<Job extends AnyJobDefinition> = z.output<Job['payload']>;
/** the payload a sender of this job gives */
export type JobPayloadInputOf<Job extends AnyJobDefinition> = z.input<Job['payload']>;

export function defineJob<const Name extends string, Payload extends z.ZodType>(
  definition: JobDefinition<Name, Payload>,
): JobDefinition<Name, Payload> {
  return Object.freeze(definition);
}

/** What a job's data carries besides its payload: the payload's version. */
export const JOB_VERSION_KEY = 'jobVersion';

/** The data a job is stored with: its checked payload and the payload's version. */
export function jobData<Job extends AnyJobDefinition>(job: Job, payload: JobPayloadInputOf<Job>): Record<string, unknown> {
  const parsed: unknown = job.payload.parse(payload);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new TypeError(`job ${job.name}: a payload is an object`);
  }
  return { ...parsed, [JOB_VERSION_KEY]: job.version };
}

/**
 * A received job's payload, checked against its definition. Data without a version was sent
 * before versions were recorded (version 1) or by a schedule of that version; a job of
 * another version is refused, so that it fails (and is retried) rather than being misread.
 */
export function readJobData<Job extends AnyJobDefinition>(job: Job, data: unknown): JobPayloadOf<Job> {
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const version = record[JOB_VERSION_KEY] ?? 1;
  if (version !== job.version) {
    throw new Error(`job ${job.name}: payload version ${String(version)}, this worker reads version ${job.version}`);
  }
  const { [JOB_VERSION_KEY]: _version, ...payload } = record;
  return job.payload.parse(payload) as JobPayloadOf<Job>;
}

/**
 * The domain's port to background work. A job is enqueued inside the
 * transaction of the change that asks for it: it exists if and only if the
 * change commits. apps/worker implements it with pg-boss.
 */
export interface JobQueue {
  /** enqueues a job of this definition; the payload is typed and checked by the definition */
  send<Job extends AnyJobDefinition>(job: Job, payload: JobPayloadInputOf<Job>, opts: JobSendOptions): Promise<string | null>;
}

export interface JobSendOptions {
  /** the tenant reader of the change's transaction: the job is inserted through it and committed with it */
  sql: TenantReader;
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
  maintenance?: {
    forEnvironment(environment: string | null): Promise<unknown | null>;
    /** every window in force (`scope`: an environment's name, `*` for all) */
    all?(): Promise<readonly { scope: string }[]>;
  };
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}
