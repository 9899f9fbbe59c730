import { createNotificationListener, type NotificationListenerOptions, placementOf, type PrismaClient } from '@bo/db';
import { type Clock, JOB_VERSION_KEY, type JobContext, type JobQueue, systemClock } from '@bo/domain';
import type { FileStorage } from '@bo/domain/shared/storage';
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from '@bo/domain/webhooks/webhook-config';
import type { QueueDepth } from '@bo/runtime';
import type { Logger } from 'pino';
import type PgBoss from 'pg-boss';
import { type JobHandler, jobHandlers, type WorkerLoop, workerLoops } from './handlers.js';
import { createBoss, PgBossJobQueue } from './queue.js';

export interface WorkerOptions {
  connectionString: string;
  prisma: PrismaClient;
  log: Logger;
  clock?: Clock;
  /** false: only enqueue (an API process that leaves the work to separate workers) */
  work?: boolean;
  handlers?: JobHandler[];
  /** connections of pg-boss's own pool (1 on the embedded database) */
  poolSize?: number;
  loops?: WorkerLoop[];
  storage?: FileStorage;
  webhooks?: WebhookConfig;
  /** scheduled maintenance (webhook deliveries of an environment in maintenance wait) */
  maintenance?: JobContext['maintenance'];
  /** settings every pool on this database needs (Database.poolConfig()) */
  pool?: Record<string, unknown>;
}

export interface RunningWorker {
  boss: PgBoss;
  jobs: JobQueue;
  /** finishes the jobs in flight (up to timeoutMs), then stops */
  stop(timeoutMs?: number): Promise<void>;
  /** jobs waiting (created or to be retried, due or not) and running per queue: one count over pg-boss's job table */
  queueDepth(): Promise<QueueDepth[]>;
}

// pg-boss's job states are an enum in this order: created, retry, active, completed, cancelled, failed
const QUEUE_DEPTH_SQL = `SELECT name, (count(*) FILTER (WHERE state < 'active'))::int AS queued,
    (count(*) FILTER (WHERE state = 'active'))::int AS active
  FROM pgboss.job WHERE state <= 'active' GROUP BY name`;

/**
 * Starts pg-boss, creates every handler's queue and, when `work` is on, works
 * them. Several workers may run against one database: pg-boss hands each job
 * to one of them (SKIP LOCKED), and a job whose worker died expires and is retried.
 */
export async function startWorker(opts: WorkerOptions): Promise<RunningWorker> {
  const handlers = opts.handlers ?? jobHandlers;
  const work = opts.work ?? true;
  const boss = createBoss(opts.connectionString, { max: opts.poolSize, schedule: work, pool: opts.pool });
  boss.on('error', (err: Error) => opts.log.error({ err }, 'job queue error'));
  await boss.start();
  const ctx: JobContext = {
    prisma: opts.prisma,
    clock: opts.clock ?? systemClock,
    log: opts.log,
    storage: opts.storage,
    webhooks: opts.webhooks,
    maintenance: opts.maintenance,
  };
  // on several clusters a job of an environment runs against that environment's cluster, whichever
  // queue holds it (a job queued before its environment moved runs on the new cluster)
  const placement = placementOf(opts.prisma);
  const contextOf = async (data: unknown): Promise<JobContext> => {
    const environmentId = (data as { environmentId?: unknown } | null)?.environmentId;
    if (!placement || typeof environmentId !== 'string') return ctx;
    const prisma = await placement.clientOf(environmentId);
    return prisma === ctx.prisma ? ctx : { ...ctx, prisma };
  };
  for (const h of handlers) {
    await boss.createQueue(h.name, {
      name: h.name,
      retryLimit: h.retryLimit ?? 5,
      retryDelay: h.retryDelaySeconds ?? 5,
      retryBackoff: h.retryBackoff ?? true,
      expireInSeconds: h.expireInSeconds ?? 15 * 60,
    } as PgBoss.Queue);
    if (!work) continue;
    // a schedule's jobs carry the version of the payload they were scheduled with
    if (h.schedule) await boss.schedule(h.name, h.schedule, { [JOB_VERSION_KEY]: h.version });
    await boss.work<unknown>(
      h.name,
      { batchSize: h.batchSize ?? 1, pollingIntervalSeconds: h.pollingIntervalSeconds ?? 1 },
      async (jobs) => {
        for (const job of jobs) {
          try {
            await h.handle({ id: job.id, data: job.data ?? {} }, await contextOf(job.data));
          } catch (err) {
            opts.log.warn({ err, job: job.id, queue: h.name }, 'job failed; it will be retried');
            throw err;
          }
        }
      },
    );
  }
  // a caller that picks its own handlers gets only the loops it names
  const loops = opts.loops ?? (opts.handlers ? [] : workerLoops);
  // one LISTEN connection for the process (shared with anyone else in it who listens);
  // none on the embedded database, where the loops poll
  const notifications =
    work && loops.length > 0 && (opts.webhooks ?? DEFAULT_WEBHOOK_CONFIG).listen
      ? createNotificationListener({
          connectionString: opts.connectionString,
          pool: opts.pool as NotificationListenerOptions['pool'],
          log: opts.log,
        })
      : null;
  const running = work ? loops.map((l) => l.start(ctx, { notifications })) : [];
  return {
    boss,
    jobs: new PgBossJobQueue(boss),
    async queueDepth() {
      const { rows } = await boss.getDb().executeSql(QUEUE_DEPTH_SQL, []);
      const found = new Map((rows as { name: string; queued: number; active: number }[]).map((r) => [r.name, r]));
      // every queue of the service, an empty one as 0: a queue that drains shows 0, not a gap
      return handlers.map((h) => ({
        queue: h.name,
        queued: found.get(h.name)?.queued ?? 0,
        active: found.get(h.name)?.active ?? 0,
      }));
    },
    async stop(timeoutMs = 30_000) {
      // loops first: they finish what is in flight and start nothing new
      await Promise.all(running.map((r) => r.stop()));
      await notifications?.close();
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true });
    },
  };
}
