import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { type Database, FilesystemStorage, openDatabase } from '@bo/db';
import { mountFileRoutes, readsOwnBody } from '@bo/api-v2';
import { DEFAULT_UPLOAD_CONFIG } from '@bo/domain/uploads/upload-config';
import { DEFAULT_WEBHOOK_CONFIG } from '@bo/domain/webhooks/webhook-config';
import type { Clock } from '@bo/domain';
import { createHttpApp } from './app.js';
import { type ServiceConfig, serviceLimits } from './config.js';
import { MaintenanceReader, setListLimits } from '@bo/domain';
import { createRateLimit } from './rate-limit.js';
import { loadTls } from './tls.js';
import { seedDemoIfEmpty, type DemoAccess } from '@bo/demo';
import { type RunningWorker, startWorker } from '@bo/worker';

export interface RunningService {
  url: string;
  port: number;
  httpPort: number | null;
  database: Database;
  worker: RunningWorker;
  log: Logger;
  demo: DemoAccess | null;
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

/** Opens the database (migrating it), seeds the demo on an empty one, and serves HTTPS. */
export async function startService(config: ServiceConfig, extra: { clock?: Clock } = {}): Promise<RunningService> {
  const log = pino({ level: config.logLevel });
  const limits = serviceLimits(config);
  setListLimits(limits);
  mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    embeddedPort: config.embeddedDbPort,
    log: (msg) => log.info(msg),
    poolSize: limits.dbPoolSize,
    idleTimeoutMs: limits.dbIdleTimeoutMs,
    statementTimeoutMs: limits.statementTimeoutMs,
    connectionsPerEnvironment: limits.connectionsPerEnvironment,
  });
  const maintenance = new MaintenanceReader(database.prisma);
  const demo = config.seedDemo ? await seedDemoIfEmpty(database.prisma) : null;
  const storage = new FilesystemStorage(path.join(config.dataDir, 'files'));
  const webhooks = config.webhooks ?? DEFAULT_WEBHOOK_CONFIG;
  const uploads = config.uploads ?? DEFAULT_UPLOAD_CONFIG;
  // the API always enqueues through pg-boss; it also works the jobs unless RUN_WORKER=false
  const worker = await startWorker({
    connectionString: database.connectionString,
    prisma: database.prisma,
    log,
    clock: extra.clock,
    work: config.runWorker,
    poolSize: database.mode === 'server' ? 4 : 1,
    storage,
    webhooks,
    pool: { ...database.poolConfig() },
    maintenance,
  });
  const perMinute = config.rateLimitPerMinute ?? 0;
  const rateLimit =
    perMinute > 0 || limits.authFailuresPerMinute > 0
      ? await createRateLimit(database.poolConfig(), {
          perMinute,
          authFailuresPerMinute: limits.authFailuresPerMinute,
          poolSize: database.mode === 'server' ? 4 : 1,
        })
      : null;
  const app = createHttpApp({
    rateLimit,
    maintenance,
    trpcMaxBatch: limits.trpcMaxBatch,
    prisma: database.prisma,
    log,
    trustProxy: config.trustProxy,
    clock: extra.clock,
    services: { jobs: worker.jobs, storage, uploads, webhooks },
    v2: { extend: mountFileRoutes, ownBody: readsOwnBody },
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
  let stopped = false;
  return {
    url: `https://localhost:${port}`,
    port,
    httpPort,
    database,
    worker,
    log,
    demo,
    async stop() {
      if (stopped) return;
      stopped = true;
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
      // in-flight jobs get a few seconds: the whole stop fits in a process manager's 10 s grace
      await worker.stop(5_000);
      await rateLimit?.close();
      await database.close();
    },
  };
}
