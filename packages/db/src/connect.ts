import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPrismaClient, type PrismaClient } from './client.js';
import { startEmbeddedDatabase } from './embedded.js';
import { applyMigrations } from './migrations.js';

export interface DatabaseOptions {
  /** a PostgreSQL server; when absent the embedded database under dataDir is used */
  databaseUrl?: string;
  dataDir: string;
  /** loopback port the embedded database is served on (0: any free port) */
  embeddedPort?: number;
  /** apply pending migrations before answering (the service does; the CLI does too) */
  migrate?: boolean;
  log?: (msg: string) => void;
  poolSize?: number;
}

export interface Database {
  prisma: PrismaClient;
  connectionString: string;
  mode: 'server' | 'embedded' | 'embedded-shared';
  close(): Promise<void>;
}

interface EmbeddedInfo {
  pid: number;
  port: number;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Where a running service announces its embedded database, so the CLI and worker can join it. */
export function embeddedInfoPath(dataDir: string): string {
  return path.join(dataDir, 'embedded-db.json');
}

/**
 * Opens the database: DATABASE_URL → that server; otherwise the embedded
 * PGlite under dataDir, or, when a running service already holds it, that
 * service's loopback socket (PGlite lets one process open its files).
 */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  const log = opts.log ?? (() => {});
  if (opts.databaseUrl) {
    if (opts.migrate !== false) await applyMigrations(opts.databaseUrl, { log });
    const prisma = createPrismaClient(opts.databaseUrl, { max: opts.poolSize ?? 10 });
    return { prisma, connectionString: opts.databaseUrl, mode: 'server', close: () => prisma.$disconnect() };
  }
  const infoFile = embeddedInfoPath(opts.dataDir);
  if (existsSync(infoFile)) {
    const info = JSON.parse(readFileSync(infoFile, 'utf8')) as EmbeddedInfo;
    if (info.pid !== process.pid && processAlive(info.pid)) {
      const connectionString = `postgresql://postgres@127.0.0.1:${info.port}/postgres?sslmode=disable`;
      const prisma = createPrismaClient(connectionString, { max: 1 });
      return { prisma, connectionString, mode: 'embedded-shared', close: () => prisma.$disconnect() };
    }
  }
  const embedded = await startEmbeddedDatabase({ dataDir: opts.dataDir, port: opts.embeddedPort ?? 0 });
  writeFileSync(infoFile, JSON.stringify({ pid: process.pid, port: embedded.port } satisfies EmbeddedInfo));
  if (opts.migrate !== false) await applyMigrations(embedded.connectionString, { log });
  // PGlite is a single session: one connection, and transactions queue behind each other
  const prisma = createPrismaClient(embedded.connectionString, { max: 1 });
  return {
    prisma,
    connectionString: embedded.connectionString,
    mode: 'embedded',
    close: async () => {
      await prisma.$disconnect();
      await embedded.stop();
      rmSync(infoFile, { force: true });
    },
  };
}
