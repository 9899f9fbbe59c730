import path from 'node:path';
import pino from 'pino';
import { FilesystemStorage, openDatabase } from '@bo/db';
import { webhookConfigFromEnv } from '@bo/domain/webhooks/webhook-config';
import { MaintenanceReader } from '@bo/domain';
import { startWorker } from './worker.js';

/**
 * A worker process on its own: DATABASE_URL, or the embedded database of a
 * running service in DATA_DIR. SIGTERM finishes the jobs in flight, then exits.
 */
const log = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir,
  log: (msg) => log.info(msg),
});
const worker = await startWorker({
  connectionString: database.connectionString,
  prisma: database.prisma,
  log,
  poolSize: database.mode === 'server' ? 4 : 1,
  pool: { ...database.poolConfig() },
  maintenance: new MaintenanceReader(database.prisma),
  // the same files as the service: on several machines DATA_DIR must be shared storage
  storage: new FilesystemStorage(path.join(dataDir, 'files')),
  webhooks: webhookConfigFromEnv(),
});
log.info('worker started');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log.info(`${signal}: finishing the jobs in flight`);
    void worker
      .stop()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
