import cluster from 'node:cluster';
import { mkdirSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pino, { type DestinationStream, type Logger } from 'pino';
import { clustersOf, currentRequestScope, type Database, FilesystemStorage, openDatabase, type PrismaClient } from '@bo/db';
import { type DemoAccess, seedDemoIfEmpty } from '@bo/demo';
import { type Clock, type JobQueue, MaintenanceReader, setListLimits } from '@bo/domain';
import { RenderPool } from '@bo/domain/rendering/render-pool';
import { createIdempotencyStore } from './idempotency.js';
import type { FileStorage } from '@bo/domain/shared/storage';
import { DEFAULT_UPLOAD_CONFIG } from '@bo/domain/uploads/upload-config';
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from '@bo/domain/webhooks/webhook-config';
import { type ServiceConfig, serviceLimits } from './config.js';
import { createHttpApp, type HttpMount } from './http-app.js';
import { answerMetricsRequests, type MetricsServer, type QueueDepth, reportQueueDepth, startMetricsServer } from './metrics.js';
import { countingUploadBytes } from './counted-storage.js';
import { createRateLimit } from './rate-limit.js';
import { startTracing } from './tracing.js';
import { loadTls } from './tls.js';

/** What a process needs of the job queue (apps/worker's startWorker gives it). */
export interface RunningJobs {
  jobs: JobQueue;
  /** finishes the jobs in flight (waiting at most graceMs), then stops */
  stop(graceMs?: number): Promise<void>;
  /** jobs waiting and running per queue, for the metrics (read by the process that works them) */
  queueDepth?(): Promise<QueueDepth[]>;
}

/**
 * Every log line written in a request carries its id (read from the request's scope, only when a
 * line is written). A new object each time: pino merges the line's own fields into it.
 */
function requestIdOfLine(): object {
  const id = currentRequestScope()?.requestId;
  return id === undefined ? {} : { requestId: id };
}

/** The process's logger: pino at `level`, each line written in a request with its `requestId`. */
export function serviceLogger(level: string, destination?: DestinationStream): Logger {
  return destination ? pino({ level, mixin: requestIdOfLine }, destination) : pino({ level, mixin: requestIdOfLine });
}

export interface JobsOptions {
  connectionString: string;
  prisma: PrismaClient;
  log: Logger;
  clock?: Clock;
  /** false: only enqueue (an API process that leaves the work to worker processes) */
  work: boolean;
  /** connections of the queue's own pool (1 on the embedded database) */
  poolSize: number;
  storage: FileStorage;
  webhooks: WebhookConfig;
  /** settings every pool on this database needs (Database.poolConfig()) */
  pool: Record<string, unknown>;
  /** scheduled maintenance (webhook deliveries of an environment in maintenance wait) */
  maintenance: MaintenanceReader;
}

export interface ProcessOptions<W extends RunningJobs> {
  /** starts the job queue; it works the jobs when `work` is on */
  jobs: (opts: JobsOptions) => Promise<W>;
  work: boolean;
  /** create the demo environment on an empty database */
  seedDemo: boolean;
  clock?: Clock;
}

/** The database (migrated), the files and the job queue: what every process of the service opens. */
export interface ProcessCore<W extends RunningJobs> {
  log: Logger;
  database: Database;
  storage: FileStorage;
  worker: W;
  demo: DemoAccess | null;
  maintenance: MaintenanceReader;
  /** the render processes of this process (thumbnails, PDFs), started when first needed */
  rendering: RenderPool;
  /** stops the jobs (those in flight finish, a few seconds at most), then closes the database */
  close(): Promise<void>;
}

export async function startCore<W extends RunningJobs>(config: ServiceConfig, opts: ProcessOptions<W>): Promise<ProcessCore<W>> {
  const log = serviceLogger(config.logLevel);
  const limits = serviceLimits(config);
  setListLimits(limits);
  // spans only when a collector is named: otherwise the SDK is never loaded
  const stopTracing = await startTracing({ endpoint: config.otlpEndpoint, serviceName: config.otelServiceName });
  // a process forked by node:cluster hands its metrics to the one that serves /metrics
  answerMetricsRequests();
  mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    databaseUrls: config.databaseUrls,
    dataDir: config.dataDir,
    embeddedPort: config.embeddedDbPort,
    log: (msg) => log.info(msg),
    poolSize: limits.dbPoolSize,
    idleTimeoutMs: limits.dbIdleTimeoutMs,
    statementTimeoutMs: limits.statementTimeoutMs,
    connectionsPerEnvironment: limits.connectionsPerEnvironment,
    replicaUrls: config.databaseReplicaUrls,
    replicaMaxLagMs: config.replicaMaxLagMs,
    // DB_LISTEN: one switch for every LISTEN of the process (webhook wake-ups, remembered reads)
    listen: (config.webhooks ?? DEFAULT_WEBHOOK_CONFIG).listen,
  });
  const maintenance = new MaintenanceReader(database.prisma);
  const demo = opts.seedDemo ? await seedDemoIfEmpty(database.prisma) : null;
  // the same files in every process: on several machines DATA_DIR must be shared storage
  const storage = countingUploadBytes(new FilesystemStorage(path.join(config.dataDir, 'files')));
  const rendering = new RenderPool(config.rendering);
  // one job queue and one set of loops per cluster (DATABASE_URLS): an environment's jobs and outbox
  // live on its cluster, enqueued in its transactions; with one cluster, the one queue as before
  const workers: W[] = [];
  for (const cluster of clustersOf(database)) {
    workers.push(
      await opts.jobs({
        connectionString: cluster.connectionString,
        prisma: cluster.prisma,
        log,
        clock: opts.clock,
        work: opts.work,
        poolSize: database.mode === 'server' ? 4 : 1,
        storage,
        webhooks: config.webhooks ?? DEFAULT_WEBHOOK_CONFIG,
        pool: { ...cluster.poolConfig() },
        maintenance,
      }),
    );
  }
  const worker = workers.length === 1 ? (workers[0] as W) : allClusters(workers);
  const depth = worker.queueDepth;
  if (opts.work && depth) reportQueueDepth(() => depth.call(worker));
  return {
    log,
    database,
    storage,
    worker,
    demo,
    maintenance,
    rendering,
    async close() {
      // in-flight jobs get a few seconds: the whole stop fits in a process manager's 10 s grace
      if (opts.work && depth) reportQueueDepth(null);
      await worker.stop(5_000);
      await rendering.close();
      await database.close();
      await stopTracing();
    },
  };
}

/**
 * The job queues of every cluster as one: the first one's `jobs` (a job is inserted through the
 * change's own transaction, so on the environment's cluster whichever queue sends it), every one
 * stopped, their depths added up per queue.
 */
function allClusters<W extends RunningJobs>(workers: W[]): W {
  const [first] = workers as [W, ...W[]];
  return Object.assign({}, first, {
    async stop(graceMs?: number) {
      await Promise.all(workers.map((w) => w.stop(graceMs)));
    },
    ...(first.queueDepth
      ? {
          async queueDepth(): Promise<QueueDepth[]> {
            const all = await Promise.all(workers.map((w) => w.queueDepth?.() ?? Promise.resolve([])));
            const byQueue = new Map<string, QueueDepth>();
            for (const d of all.flat()) {
              const known = byQueue.get(d.queue);
              byQueue.set(d.queue, known ? { ...known, queued: known.queued + d.queued, active: known.active + d.active } : d);
            }
            return [...byQueue.values()];
          },
        }
      : {}),
  });
}

export interface HttpService<W extends RunningJobs> extends Omit<ProcessCore<W>, 'close'> {
  url: string;
  port: number;
  httpPort: number | null;
  /** the metrics listener's port (METRICS_PORT), or null when this process serves none */
  metricsPort: number | null;
  /** closes the listeners and their connections, then the core */
  stop(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Opens the core and serves the mounts over HTTPS on config.port (and plain
 * HTTP on config.httpPort when set), with the rate limit shared by all
 * processes through PostgreSQL.
 */
export async function startHttpService<W extends RunningJobs>(
  config: ServiceConfig,
  opts: ProcessOptions<W> & { mounts: HttpMount[] },
): Promise<HttpService<W>> {
  const core = await startCore(config, opts);
  const { database } = core;
  const limits = serviceLimits(config);
  const perMinute = config.rateLimitPerMinute ?? 0;
  const rateLimit =
    perMinute > 0 || limits.authFailuresPerMinute > 0
      ? await createRateLimit(database.poolConfig(), {
          perMinute,
          authFailuresPerMinute: limits.authFailuresPerMinute,
          poolSize: database.mode === 'server' ? 4 : 1,
        })
      : null;
  const idempotencyStore = createIdempotencyStore(database.poolConfig(), { poolSize: database.mode === 'server' ? 4 : 1 });
  const app = createHttpApp({
    prisma: database.prisma,
    log: core.log,
    trustProxy: config.trustProxy,
    routeTable: config.routeTable ?? true,
    clock: opts.clock,
    services: {
      jobs: core.worker.jobs,
      storage: core.storage,
      uploads: config.uploads ?? DEFAULT_UPLOAD_CONFIG,
      webhooks: config.webhooks ?? DEFAULT_WEBHOOK_CONFIG,
      rendering: core.rendering,
    },
    rateLimit,
    idempotencyStore,
    maintenance: core.maintenance,
    trpcMaxBatch: limits.trpcMaxBatch,
    maxJsonDepth: limits.maxJsonDepth,
    // waiting as the database's share does: up to 100 requests, at most the statement time (30 s without one)
    share: {
      contended: limits.requestsPerEnvironment,
      alone: limits.requestsPerEnvironmentAlone,
      maxWaiting: 100,
      maxWaitMs: limits.statementTimeoutMs > 0 ? limits.statementTimeoutMs : 30_000,
    },
    mounts: opts.mounts,
  });
  const tls = await loadTls({ cert: config.tlsCert, key: config.tlsKey, dataDir: config.dataDir });
  const server = createHttpsServer({ cert: tls.cert, key: tls.key }, app);
  // keep-alive longer than common proxies' idle time so they never reuse a closed socket
  server.keepAliveTimeout = 65_000;
  const port = await listen(server, config.port, config.host);
  let plain: Server | null = null;
  let httpPort: number | null = null;
  if (config.httpPort !== null) {
    plain = createHttpServer(app);
    httpPort = await listen(plain, config.httpPort, config.host);
  }
  // a cluster's processes leave /metrics to the primary, which gathers theirs (metrics.ts)
  const metrics: MetricsServer | null =
    config.metricsPort != null && !cluster.isWorker
      ? await startMetricsServer({ port: config.metricsPort, host: config.metricsHost ?? '127.0.0.1', own: true })
      : null;
  if (metrics) core.log.info(`metrics on http://${config.metricsHost ?? '127.0.0.1'}:${metrics.port}/metrics`);
  let stopped = false;
  const { close: closeCore, ...opened } = core;
  return {
    ...opened,
    url: `https://localhost:${port}`,
    port,
    httpPort,
    metricsPort: metrics?.port ?? null,
    async stop() {
      if (stopped) return;
      stopped = true;
      await metrics?.close();
      await Promise.all(
        [server, plain]
          .filter((s): s is Server => s !== null)
          .map(
            (s) =>
              new Promise<void>((resolve) => {
                s.close(() => resolve());
                s.closeAllConnections();
              }),
          ),
      );
      await rateLimit?.close();
      await idempotencyStore.close();
      await closeCore();
    },
  };
}
