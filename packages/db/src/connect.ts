import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPrismaClient, type PrismaClient } from './client.js';
import { startEmbeddedDatabase } from './embedded.js';
import { applyMigrations } from './migrations.js';
import { DEFAULT_IDLE_TIMEOUT_MS, type PoolGuards, poolConfig } from './pool.js';
import type pg from 'pg';
import { DEFAULT_REPLICA_MAX_LAG_MS, replicaName } from './replicas.js';
import { type Cluster, Placement, registerPlacement } from './placement.js';

export interface DatabaseOptions {
  /** hold a LISTEN connection (remembered reads are forgotten on notification; see remembered.ts); default true, never on the embedded database */
  listen?: boolean;
  /** a PostgreSQL server; when absent the embedded database under dataDir is used */
  databaseUrl?: string;
  /**
   * DATABASE_URLS: several clusters, the first the global one (it replaces databaseUrl); each
   * environment's tenant data lives on one of them (placement.ts). One URL or none: one cluster.
   */
  databaseUrls?: string[];
  dataDir: string;
  /** loopback port the embedded database is served on (0: any free port) */
  embeddedPort?: number;
  /** apply pending migrations before answering (the service does; the CLI does too) */
  migrate?: boolean;
  log?: (msg: string) => void;
  poolSize?: number;
  /** pools close connections idle this long (ms; 0 never); default 10 s */
  idleTimeoutMs?: number;
  /** longest a statement of the main pool may run (ms; 0 no limit) */
  statementTimeoutMs?: number;
  /** connections of the main pool one environment's requests may hold at once (0: no cap) */
  connectionsPerEnvironment?: number;
  /** DATABASE_REPLICA_URLS: streaming replicas of the server that query reads may use (replicas.ts) */
  replicaUrls?: string[];
  /** REPLICA_MAX_LAG_MS: a replica further behind is not used */
  replicaMaxLagMs?: number;
}

export interface Database {
  prisma: PrismaClient;
  connectionString: string;
  mode: 'server' | 'embedded' | 'embedded-shared';
  /** the settings any other pool on this database must use (see pool.ts), with its own extras */
  poolConfig(extra?: pg.PoolConfig): pg.PoolConfig;
  /** with DATABASE_URLS: every cluster (the first is `prisma`'s) and where each environment lives */
  placement?: Placement;
  close(): Promise<void>;
}

/** one PostgreSQL cluster of a database: its connection string, client and pool settings */
export interface DatabaseCluster {
  index: number;
  connectionString: string;
  prisma: PrismaClient;
  poolConfig(extra?: pg.PoolConfig): pg.PoolConfig;
}

/** Every cluster of a database: the one it was opened on, or each of DATABASE_URLS. */
export function clustersOf(database: Database): DatabaseCluster[] {
  if (!database.placement)
    return [{ index: 0, connectionString: database.connectionString, prisma: database.prisma, poolConfig: database.poolConfig }];
  return database.placement.clusters.map((c) => ({
    index: c.index,
    connectionString: c.connectionString,
    prisma: c.prisma,
    poolConfig: (extra?: pg.PoolConfig) =>
      c.index === 0
        ? database.poolConfig(extra)
        : poolConfig(c.connectionString, { embedded: false, idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS }, extra),
  }));
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
  const idleTimeoutMs = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const guards = (embedded: boolean, max: number): PoolGuards => ({
    embedded,
    idleTimeoutMs,
    statementTimeoutMs: opts.statementTimeoutMs ?? 0,
    connectionsPerKey: opts.connectionsPerEnvironment === undefined ? 0 : Math.min(opts.connectionsPerEnvironment, max),
  });
  const others = (connectionString: string, embedded: boolean) => (extra?: pg.PoolConfig) =>
    poolConfig(connectionString, { embedded, idleTimeoutMs }, extra);
  const urls = opts.databaseUrls?.filter((u) => u !== '') ?? [];
  const databaseUrl = urls[0] ?? opts.databaseUrl;
  if (databaseUrl) {
    // each cluster runs its own migrations (the same folder): a tenant table exists everywhere
    if (opts.migrate !== false) for (const url of urls.length > 1 ? urls : [databaseUrl]) await applyMigrations(url, { log });
    const max = opts.poolSize ?? 10;
    // several clusters: environments move between them, so their writes take a write fence (pool.ts)
    const fenced = urls.length > 1;
    const prisma = createPrismaClient(databaseUrl, {
      max,
      guards: { ...guards(false, max), ...(fenced ? { fenced } : {}) },
      listen: opts.listen ?? true,
      ...(opts.replicaUrls?.length
        ? {
            replicas: {
              urls: opts.replicaUrls,
              maxLagMs: opts.replicaMaxLagMs ?? DEFAULT_REPLICA_MAX_LAG_MS,
              log: { info: (_o, msg) => log(msg ?? ''), warn: (_o, msg) => log(msg ?? '') },
            },
          }
        : {}),
    });
    if (urls.length <= 1) {
      return {
        prisma,
        connectionString: databaseUrl,
        mode: 'server',
        poolConfig: others(databaseUrl, false),
        close: () => prisma.$disconnect(),
      };
    }
    // the other clusters: the same pool guards; replicas are the first cluster's only
    const clusters: Cluster[] = urls.map((url, index) => ({
      index,
      name: replicaName(url),
      connectionString: url,
      prisma:
        index === 0
          ? prisma
          : createPrismaClient(url, {
              max,
              // the Idempotency-Key store is the first cluster's: a write here claims its key apart
              guards: { ...guards(false, max), holdsIdempotencyKeys: false, fenced },
              listen: opts.listen ?? true,
            }),
    }));
    const placement = new Placement(clusters);
    registerPlacement(placement);
    log(`${clusters.length} clusters: ${clusters.map((c) => `${c.index}=${c.name}`).join(', ')}`);
    return {
      prisma,
      connectionString: databaseUrl,
      mode: 'server',
      poolConfig: others(databaseUrl, false),
      placement,
      close: async () => {
        await placement.close();
        await prisma.$disconnect();
      },
    };
  }
  const infoFile = embeddedInfoPath(opts.dataDir);
  if (existsSync(infoFile)) {
    const info = JSON.parse(readFileSync(infoFile, 'utf8')) as EmbeddedInfo;
    if (info.pid !== process.pid && processAlive(info.pid)) {
      const connectionString = `postgresql://postgres@127.0.0.1:${info.port}/postgres?sslmode=disable`;
      const prisma = createPrismaClient(connectionString, { max: 1, guards: guards(true, 1) });
      return {
        prisma,
        connectionString,
        mode: 'embedded-shared',
        poolConfig: others(connectionString, true),
        close: () => prisma.$disconnect(),
      };
    }
  }
  const embedded = await startEmbeddedDatabase({ dataDir: opts.dataDir, port: opts.embeddedPort ?? 0 });
  writeFileSync(infoFile, JSON.stringify({ pid: process.pid, port: embedded.port } satisfies EmbeddedInfo));
  if (opts.migrate !== false) await applyMigrations(embedded.connectionString, { log });
  // PGlite is a single session: one connection, and transactions queue behind each other
  const prisma = createPrismaClient(embedded.connectionString, { max: 1, guards: guards(true, 1) });
  return {
    prisma,
    connectionString: embedded.connectionString,
    mode: 'embedded',
    poolConfig: others(embedded.connectionString, true),
    close: async () => {
      await prisma.$disconnect();
      await embedded.stop();
      rmSync(infoFile, { force: true });
    },
  };
}
