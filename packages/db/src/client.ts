import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { PrismaClient } from './generated/prisma/client.js';
import { DEFAULT_IDLE_TIMEOUT_MS, GuardedPool, type PoolGuards, PREPARED } from './pool.js';
import { createNotificationListener } from './notifications.js';
import { type RememberedReads, rememberedReads, rememberedReadsOn } from './remembered.js';
import { ReplicaRouter, type ReplicaRouterOptions, replicaName } from './replicas.js';

export interface ClientOptions {
  /** connections in the pool; 1 for the embedded database (PGlite is one session) */
  max?: number;
  /** called with the SQL of every query the client sends (tests count queries with it) */
  onQuery?: (sql: string) => void;
  /** what the pool must do on this database (embedded or server) and for requests; see pool.ts */
  guards?: Partial<PoolGuards>;
  /** may hold a LISTEN connection for its remembered reads (false behind a pooler in transaction mode: nothing is remembered) */
  listen?: boolean;
  /**
   * streaming replicas that routed reads may use (replicas.ts); they need the listening connection
   * (its catch-up query carries the primary's WAL position), so none are used with `listen` false
   */
  replicas?: { urls: string[] } & ReplicaRouterOptions;
}

/**
 * How a statement is planned. By default it is planned for its own values every time: the
 * tables are shared by tenants of very different sizes, and one generic plan chosen for all
 * (a plan fit for 100,000 rows of one environment, or a cross-tenant index picked for another's
 * filter) can scan what a 12-row read of another environment never needs. `stablePlan` says the
 * best plan cannot depend on the values: a lookup by key or by id, an unfiltered page in index
 * order. Such a statement is prepared per connection (parsed once) and PostgreSQL may keep one
 * generic plan for it (plan_cache_mode auto), which saves the planning, a large part of a page's
 * statement (docs/performance.md).
 */
export interface ReadOptions {
  stablePlan?: boolean;
}

/**
 * Runs one statement on a client's pool, outside any transaction: a read, or a write that is its own
 * transaction (the webhook worker's claims and records); values come back as `pg` parses them.
 */
export type RawRead = <T>(sql: string, params: readonly unknown[], options?: ReadOptions) => Promise<T[]>;

// The pool behind each client, so that hot reads can skip Prisma's raw-query layer
// (about twice the Node CPU of the same statement through pg, measured on a page of 100 rows).
const rawReads = new WeakMap<PrismaClient, RawRead>();
// The guarded pool behind each client, for write transactions that need no Prisma (see tenant.ts).
const pools = new WeakMap<PrismaClient, GuardedPool>();
// The replica router per client, when replicas are configured (none: every read goes to the primary).
const routers = new WeakMap<PrismaClient, ReplicaRouter>();
// Remembered reads per client, made on first use (they open the process's listening connection).
const rememberedByClient = new WeakMap<PrismaClient, () => RememberedReads>();

export function createPrismaClient(connectionString: string, opts: ClientOptions = {}): PrismaClient {
  // one pool shared by Prisma and the raw reads: the pool size bounds the connections of both
  const pool = new GuardedPool(
    { connectionString, max: opts.max ?? 10 },
    { embedded: false, idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS, ...opts.guards },
  );
  // an idle connection the server closes is dropped by the pool itself; without a listener the
  // event would be an uncaught exception (Prisma adds its own only once it has connected)
  pool.on('error', () => {});
  // statements a transaction's reader sends on its connection directly are logged like the rest
  pool.observe = opts.onQuery;
  const adapter = new PrismaPg(pool);
  const onQuery = opts.onQuery;
  let client: PrismaClient;
  if (!onQuery) client = new PrismaClient({ adapter });
  else {
    const logged = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
    logged.$on('query', (e) => onQuery(e.query));
    client = logged as unknown as PrismaClient;
  }
  // the pool is ours: end it on disconnect, whether or not Prisma itself ever connected
  const disconnect = client.$disconnect.bind(client);
  let ended = false;
  client.$disconnect = async () => {
    await disconnect();
    if (!ended) {
      ended = true;
      await remembered?.close();
      await router?.close();
      await pool.end();
    }
  };
  let remembered: RememberedReads | null = null;
  rememberedByClient.set(client, () => {
    remembered ??= rememberedReadsOn({ connectionString, embedded: opts.guards?.embedded ?? false, listen: opts.listen ?? true });
    return remembered;
  });
  pools.set(client, pool);
  const router = replicaRouterFor(connectionString, opts);
  if (router) routers.set(client, router);
  rawReads.set(client, async <T>(sql: string, params: readonly unknown[], options?: ReadOptions) => {
    onQuery?.(sql);
    const values = params as unknown[];
    // a stable plan is prepared per connection on a server; the embedded database sends every statement unnamed
    const config = options?.stablePlan ? { name: PREPARED, text: sql, values } : { text: sql, values };
    return (await pool.query(config)).rows as T[];
  });
  rawScripts.set(client, async <T>(statements: string[]) => {
    const text = statements.join(';\n');
    onQuery?.(text);
    // no values: sent as a simple query, the statements together as one implicit transaction
    const result = (await pool.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    return (last?.rows ?? []) as T[];
  });
  return client;
}

function replicaRouterFor(connectionString: string, opts: ClientOptions): ReplicaRouter | null {
  const replicas = opts.replicas;
  if (!replicas || replicas.urls.length === 0 || opts.guards?.embedded) return null;
  if (opts.listen === false) {
    replicas.log?.warn({}, 'DATABASE_REPLICA_URLS ignored: replicas need the listening connection (DB_LISTEN is off)');
    return null;
  }
  const pools = replicas.urls.map((url) => {
    const pool = new GuardedPool(
      // a stopped replica answers at once (refused); one that hangs costs a read at most a second before the primary answers it
      { connectionString: url, max: opts.max ?? 10, connectionTimeoutMillis: 1_000, application_name: REPLICA_APPLICATION_NAME },
      { embedded: false, idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS, ...opts.guards },
    );
    // an idle connection of a replica that stops is dropped by the pool; the router learns it on its next use or poll
    pool.on('error', () => {});
    // a replica that stops ends its connections, also those checked out between two statements:
    // the statement in flight fails (and the read goes to the primary); the client's own event must not
    // reach the process as an uncaught error
    pool.on('connect', (client) => client.on('error', () => {}));
    return { name: replicaName(url), pool };
  });
  return new ReplicaRouter(pools, createNotificationListener({ connectionString, embedded: false }), replicas);
}

/** application_name of the connections reads hold on replicas (to be found in pg_stat_activity) */
export const REPLICA_APPLICATION_NAME = 'bizops-replica-read';

/**
 * Makes `alias` (a proxy of `client`: an environment cluster's client with the global models of the
 * global one, see the domain's placedPrisma) answer as `client` does for the raw paths, its pool, its
 * router and its remembered reads, instead of falling back to Prisma's raw queries.
 */
export function aliasClient(alias: PrismaClient, client: PrismaClient): void {
  const read = rawReads.get(client);
  if (read) rawReads.set(alias, read);
  const script = rawScripts.get(client);
  if (script) rawScripts.set(alias, script);
  const pool = pools.get(client);
  if (pool) pools.set(alias, pool);
  const router = routers.get(client);
  if (router) routers.set(alias, router);
  const remembered = rememberedByClient.get(client);
  if (remembered) rememberedByClient.set(alias, remembered);
}

/** The replica router of a client made here with replicas; none otherwise (every read on the primary). */
export function replicaRouterOf(client: PrismaClient): ReplicaRouter | undefined {
  return routers.get(client);
}

/** The guarded pool of a client made here; none for any other client. */
export function poolOf(client: PrismaClient): GuardedPool | undefined {
  return pools.get(client);
}

/** The remembered reads of a client made here (see remembered.ts); none for any other client. */
export function rememberedReadsOf(client: PrismaClient): RememberedReads {
  return rememberedByClient.get(client)?.() ?? NOTHING_REMEMBERED;
}
const NOTHING_REMEMBERED = rememberedReads(null);

/**
 * Runs parameterless statements, separated by semicolons, in one round trip as one implicit
 * transaction (PostgreSQL's simple query: an error rolls all of them back and leaves the session
 * idle); answers the rows of the last. For a short locking step (`SET LOCAL …; LOCK …; SELECT …`)
 * that Prisma's interactive transaction would send as five statements.
 */
export type RawScript = <T>(statements: string[]) => Promise<T[]>;
const rawScripts = new WeakMap<PrismaClient, RawScript>();

export function rawScript(client: PrismaClient): RawScript {
  return (
    rawScripts.get(client) ??
    (<T>(statements: string[]) =>
      client.$transaction(async (tx) => {
        let rows: T[] = [];
        for (const statement of statements) rows = await tx.$queryRawUnsafe<T[]>(statement);
        return rows;
      }))
  );
}

/** The raw read of a client made here; Prisma's own raw query for any other client. */
export function rawRead(client: PrismaClient): RawRead {
  return (
    rawReads.get(client) ??
    (<T>(sql: string, params: readonly unknown[]) => client.$queryRawUnsafe<T[]>(sql, ...(params as unknown[])))
  );
}

export type { PrismaClient };
