import { type PrismaClient, poolOf, type ReadOptions, rawRead, rememberedReadsOf, replicaRouterOf } from './client.js';
import { type IndexedOrders, indexedOrders } from './indexed-orders.js';
import { setPipelined } from './pg-internals.js';
import {
  type CheckoutCapture,
  capturingCheckouts,
  type GuardedPool,
  noteRequestWrite,
  pendingWriteGate,
  sqlError,
  WRITE_FENCE,
} from './pool.js';
import { StatementChannel, type TransactionConnection } from './statement-channel.js';
import type { RememberedChannel } from './remembered.js';

/**
 * Tenant scoping, applied in this one place: every model but Environment has an
 * environment_id, and this extension adds the environment to every where clause
 * and every created row (nested creates included), so a use case can never read
 * or write another environment's rows by forgetting a filter. Raw SQL reads go
 * through `tenantSql` below, which binds the environment as $1 of every statement.
 */
const UNSCOPED_MODELS = new Set(['Environment']);

const WHERE_OPERATIONS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'delete',
  'deleteMany',
  'upsert',
]);

type Plain = Record<string, unknown>;

function isPlain(v: unknown): v is Plain {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** Adds environmentId to a create payload and to every nested create inside it. */
function stampCreate(data: unknown, environmentId: string): unknown {
  if (Array.isArray(data)) return data.map((d) => stampCreate(d, environmentId));
  if (!isPlain(data)) return data;
  const out: Plain = { ...data, environmentId };
  for (const [key, value] of Object.entries(data)) {
    if (isPlain(value)) out[key] = stampNested(value, environmentId);
  }
  return out;
}

/** Walks relation write operations (create, createMany, connectOrCreate, upsert, update). */
function stampNested(op: Plain, environmentId: string): Plain {
  const out: Plain = { ...op };
  if ('create' in op) out.create = stampCreate(op.create, environmentId);
  if (isPlain(op.createMany) && 'data' in op.createMany) {
    out.createMany = { ...op.createMany, data: stampCreate(op.createMany.data, environmentId) };
  }
  if ('connectOrCreate' in op) {
    const list = Array.isArray(op.connectOrCreate) ? op.connectOrCreate : [op.connectOrCreate];
    out.connectOrCreate = list.map((c) => (isPlain(c) ? { ...c, create: stampCreate(c.create, environmentId) } : c));
  }
  if ('upsert' in op) {
    const list = Array.isArray(op.upsert) ? op.upsert : [op.upsert];
    out.upsert = list.map((u) =>
      isPlain(u) ? { ...u, create: stampCreate(u.create, environmentId), update: stampUpdate(u.update, environmentId) } : u,
    );
  }
  return out;
}

function stampUpdate(data: unknown, environmentId: string): unknown {
  if (!isPlain(data)) return data;
  const out: Plain = { ...data };
  for (const [key, value] of Object.entries(data)) {
    if (isPlain(value)) out[key] = stampNested(value, environmentId);
  }
  return out;
}

export function scopeToEnvironment(client: PrismaClient, environmentId: string) {
  return client.$extends({
    name: 'tenant-scope',
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          if (UNSCOPED_MODELS.has(model)) return query(args);
          const raw: unknown = args;
          const a: Plain = isPlain(raw) ? { ...raw } : {};
          if (WHERE_OPERATIONS.has(operation)) {
            a.where = { ...(isPlain(a.where) ? a.where : {}), environmentId };
          }
          if (operation === 'create') a.data = stampCreate(a.data, environmentId);
          if (operation === 'createMany' || operation === 'createManyAndReturn') {
            a.data = stampCreate(a.data, environmentId);
          }
          if (operation === 'update' || operation === 'updateMany' || operation === 'updateManyAndReturn') {
            a.data = stampUpdate(a.data, environmentId);
          }
          if (operation === 'upsert') {
            a.create = stampCreate(a.create, environmentId);
            a.update = stampUpdate(a.update, environmentId);
          }
          // the union of every model's argument type is too large to name; the shape is unchanged but for the scope
          return (query as (args: unknown) => ReturnType<typeof query>)(a);
        },
      },
    },
  });
}

export type ScopedClient = ReturnType<typeof scopeToEnvironment>;
/** The client inside an interactive transaction of a scoped client. */
export type ScopedTransaction = Parameters<Parameters<ScopedClient['$transaction']>[0]>[0];

/**
 * Placeholder for environmentId in create payloads: the generated types require
 * the field, and the tenant scope overwrites it with the caller's environment.
 */
export const SCOPED_ENVIRONMENT = '';

/**
 * Raw SQL reads of one environment, outside Prisma (hot list pages: Prisma's raw-query
 * layer costs about as much Node CPU again as pg itself). $1 of every statement is
 * always this environment, bound here and never passed by the caller, so a statement
 * filters on `environment_id = $1`; `params` bind $2, $3, …
 * Reads only, and outside transactions: inside one, use the transaction's client.
 */
export interface TenantSql {
  readonly environmentId: string;
  /** one statement, planned for its values unless `stablePlan` (see ReadOptions) */
  read<T>(sql: string, params?: readonly unknown[], options?: ReadOptions): Promise<T[]>;
  /**
   * The same read, remembered by this process for at most a second and forgotten at once
   * when `channel` is notified (see remembered.ts); inside a transaction, read as usual.
   */
  readRemembered<T>(channel: RememberedChannel, sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * One statement that changes rows of the environment and answers them (UPDATE … RETURNING),
   * in its own transaction (in the transaction reader: in that transaction); the same binding as `read`. Kept apart from `read` so reads can be
   * routed elsewhere (a replica) without moving writes. Used where a round trip counts (chunks).
   */
  write<T>(sql: string, params?: readonly unknown[], options?: ReadOptions): Promise<T[]>;
  /**
   * True when the table has an index on (environment_id, column, id) (see indexed-orders.ts):
   * a range on the column sorted by it has one best plan whatever the values. Absent: not known.
   */
  indexedOrder?(table: string, column: string): Promise<boolean>;
  /**
   * True when the table has an index on (environment_id, lower(column) text_pattern_ops) (see
   * indexed-orders.ts): a prefix search on the column has one best plan whatever the prefix. Absent: not known.
   */
  indexedPrefix?(table: string, column: string): Promise<boolean>;
  /**
   * Runs `write` in one transaction of its own on a connection of the client's pool (its guards,
   * its request scope), the tenant reader on that connection: BEGIN, the reader's statements,
   * COMMIT, or ROLLBACK when `write` throws. No Prisma: for a write that goes only through the
   * reader, Prisma's interactive transaction is pure overhead (docs/performance.md). Absent where
   * the client's pool is not known (or inside a transaction): use Prisma's transaction then.
   */
  transaction?<T>(write: (reader: TenantReader) => Promise<T>, options?: WriteTransactionOptions): Promise<T>;
  /**
   * Reads of the global tables (GLOBAL_TABLES in placement.ts: users, tokens, …) of the same environment,
   * on the first cluster: present only where the environment lives on another cluster (DATABASE_URLS),
   * whose copies of those tables are empty. Absent, the global tables are this reader's own.
   */
  readonly global?: TenantSql;
}

const indexedOrdersByClient = new WeakMap<PrismaClient, IndexedOrders>();

/** The catalog of (environment_id, column, id) indexes, one per client (read on first use). */
function indexedOrdersOf(client: PrismaClient): IndexedOrders {
  let orders = indexedOrdersByClient.get(client);
  if (!orders) {
    orders = indexedOrders(rawRead(client));
    indexedOrdersByClient.set(client, orders);
  }
  return orders;
}

export interface TenantSqlOptions {
  /**
   * `read` may go to a streaming replica that has replayed everything the running request must see
   * (replicas.ts): for query procedures. Writes, remembered reads and transactions stay on the primary.
   */
  replicaReads?: boolean;
}

export function tenantSql(client: PrismaClient, environmentId: string, opts?: TenantSqlOptions): TenantSql {
  const read = rawRead(client);
  const pool = poolOf(client);
  const remembered = rememberedReadsOf(client);
  // one lookup per procedure call, and only when asked: nothing more on the read path without replicas
  const router = opts?.replicaReads ? replicaRouterOf(client) : undefined;
  return {
    environmentId,
    read: router
      ? <T>(sql: string, params: readonly unknown[] = [], options?: ReadOptions) => {
          const values = [environmentId, ...params];
          return router.read<T>(sql, values, options, () => read<T>(sql, values, options));
        }
      : <T>(sql: string, params: readonly unknown[] = [], options?: ReadOptions) =>
          read<T>(sql, [environmentId, ...params], options),
    readRemembered: <T>(channel: RememberedChannel, sql: string, params: readonly unknown[] = []) => {
      const values = [environmentId, ...params];
      return remembered.read(channel, `${sql}\u0000${JSON.stringify(values)}`, () => read<T>(sql, values));
    },
    write: <T>(sql: string, params: readonly unknown[] = [], options?: ReadOptions) =>
      read<T>(sql, [environmentId, ...params], options).finally(noteRequestWrite),
    indexedOrder: (table, column) => indexedOrdersOf(client).has(table, column),
    indexedPrefix: (table, column) => indexedOrdersOf(client).hasPrefix(table, column),
    ...(pool
      ? {
          transaction: <T>(write: (reader: TenantReader) => Promise<T>, options?: WriteTransactionOptions) =>
            sqlTransaction(pool, environmentId, write, options?.timeoutMs ?? WRITE_TRANSACTION_TIMEOUT_MS),
        }
      : {}),
  };
}

/**
 * `sql` of an environment on a cluster other than the first, its global tables read through `global`
 * (the first cluster's reader), in its transactions' readers too.
 */
export function withGlobalReads(sql: TenantSql, global: TenantSql): TenantSql {
  const { transaction } = sql;
  return {
    ...sql,
    global,
    ...(transaction
      ? {
          transaction: <T>(write: (reader: TenantReader) => Promise<T>, options?: WriteTransactionOptions) =>
            transaction((reader) => write({ ...reader, global }), options),
        }
      : {}),
  };
}

/** what Prisma's interactive transaction allows by default: a write longer than this is rolled back */
export const WRITE_TRANSACTION_TIMEOUT_MS = 5_000;

export interface WriteTransactionOptions {
  /** past this (ms) the write is rolled back and fails as a statement timeout (57014) */
  timeoutMs?: number;
}

/** A transaction of our own has no Prisma transaction behind it: its reader always sends on the connection. */
const NO_RAW_TRANSACTION: RawTransaction = {
  $queryRawUnsafe: () => Promise.reject(new Error('no Prisma transaction here')),
  $executeRawUnsafe: () => Promise.reject(new Error('no Prisma transaction here')),
};

async function sqlTransaction<T>(
  pool: GuardedPool,
  environmentId: string,
  write: (reader: TenantReader) => Promise<T>,
  timeoutMs: number,
): Promise<T> {
  // the request's write gate (its Idempotency-Key's claim), carried as this transaction's first
  // statement: pipelined with the write, it costs no round trip. One carried by another of the
  // request's transactions still running is waited for.
  const gate = pendingWriteGate();
  // (on a cluster other than the first, which holds no key store, the claim is taken apart first)
  const carried = pool.holdsIdempotencyKeys ? (gate?.carry() ?? null) : null;
  if (gate && !carried) await gate.pass();
  let client: Awaited<ReturnType<GuardedPool['connectCarryingGate']>>;
  try {
    client = await pool.connectCarryingGate();
  } catch (err) {
    if (carried) gate?.carried(false, err);
    throw err;
  }
  // pg's pipeline mode, for this transaction only (the embedded database takes one statement at a time)
  const pipelined = !pool.embedded;
  // as Prisma's transaction would: past its time the write is rolled back, whatever it still sends
  let expired = false;
  const expire = () => {
    expired = true;
  };
  let deadline = Date.now() + timeoutMs;
  let timer = setTimeout(expire, timeoutMs);
  timer.unref();
  const channel = new StatementChannel({ client, pool, isOpen: () => !expired, pipelined });
  // bounded work outside the database lengthens the time limit by its bound (see TenantReader.besideDatabase)
  const besideDatabase = async <T>(boundMs: number, work: () => Promise<T>): Promise<T> => {
    if (expired) throw sqlError('57014', 'canceling statement due to statement timeout');
    clearTimeout(timer);
    deadline += boundMs;
    timer = setTimeout(expire, Math.max(0, deadline - Date.now()));
    timer.unref();
    // the server's own limit on a transaction left idle (0 where there is none), queued: no round trip
    await channel.queue(
      `SELECT set_config('idle_in_transaction_session_timeout',
                         (SELECT CASE WHEN setting::bigint = 0 THEN '0' ELSE (setting::bigint + $1)::text END
                            FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout'), true)`,
      [boundMs],
    );
    return work();
  };
  let broken: unknown;
  setPipelined(client, pipelined);
  try {
    await channel.queue('BEGIN');
    // several clusters: the environment's write fence first (a move waits for it, or it is refused)
    if (pool.fenced) await channel.queue(WRITE_FENCE.transaction, [environmentId], { stablePlan: true });
    if (carried) await channel.queue(carried.text, carried.values, { stablePlan: true });
    const result = await write({ ...transactionReader(NO_RAW_TRANSACTION, environmentId, channel), besideDatabase });
    const committed = await channel.send('COMMIT');
    // COMMIT of an aborted transaction answers ROLLBACK, without an error
    if (committed.command !== 'COMMIT') throw channel.queuedFailure ?? sqlError('40001', 'the transaction was rolled back');
    if (carried) gate?.carried(true, undefined);
    // the request's later reads must see it, on a replica too
    noteRequestWrite();
    return result;
  } catch (err) {
    channel.flush();
    pool.observe?.('ROLLBACK');
    // answered after everything sent before it: nothing of the transaction is in flight after it
    await client.query('ROLLBACK').catch((e: unknown) => {
      broken = e;
    });
    // the gate's statement failed first if it failed (it was sent first): the gate says what that means
    throw (carried ? gate?.carried(false, channel.queuedFailure ?? err) : undefined) ?? err;
  } finally {
    clearTimeout(timer);
    setPipelined(client, false);
    // a connection whose ROLLBACK failed is in no known state: the pool closes it
    client.release(broken instanceof Error ? broken : undefined);
  }
}

/** What a transaction offers for raw SQL; only the tenant reader below calls it. */
interface RawTransaction {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/**
 * Raw SQL inside one transaction, for one environment: the environment is bound as $1
 * of every statement by this reader, and table names are checked identifiers. The
 * domain's transaction type has no raw-query method; this is its only way to raw SQL.
 */
export interface TenantReader extends TenantSql {
  /** locks one row of the environment for the rest of the transaction; false when there is none */
  lockForUpdate(table: string, id: string): Promise<boolean>;
  /** which of the ids are rows of the environment in that table */
  existingIds(table: string, ids: readonly string[]): Promise<Set<string>>;
  /** deletes one row of the environment by id; answers how many went */
  deleteById(table: string, id: string): Promise<number>;
  /**
   * Inserts one row of the environment: `columns` by column name (undefined values are left to
   * the column's default; environment_id is the reader's). One statement, no row answered.
   */
  insert(table: string, columns: Readonly<Record<string, unknown>>): Promise<void>;
  /**
   * Sets columns of one row of the environment by id (undefined values are left as they are).
   * Queued: nobody waits for its answer (see `queue`); the caller knows the row exists (it holds its lock).
   */
  update(table: string, id: string, columns: Readonly<Record<string, unknown>>): Promise<void>;
  /**
   * A write whose answer nobody needs (no rows, no count). In a transaction of our own (see
   * `TenantSql.transaction`) it is sent at once and not waited for: it fails, if it does, the
   * next statement waited for, or the commit. Elsewhere it runs and is waited for as any.
   */
  queue(sql: string, params?: readonly unknown[], options?: ReadOptions): Promise<void>;
  /**
   * Work outside the database that the transaction waits for (an invoice's PDF rendered in a render
   * process, itself bounded): while it runs, the transaction's time limit and the server's
   * idle-in-transaction limit are lengthened by up to `boundMs`, its own bound. Absent where the
   * transaction has no limit of ours (Prisma's).
   */
  besideDatabase?<T>(boundMs: number, work: () => Promise<T>): Promise<T>;
}

export function tableIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe identifier ${name}`);
  return `"${name}"`;
}

export function transactionReader(
  tx: RawTransaction,
  environmentId: string,
  connection?: TransactionConnection | StatementChannel,
): TenantReader {
  const direct = connection instanceof StatementChannel ? connection : connection ? new StatementChannel(connection) : null;
  const read = direct
    ? <T>(sql: string, params: readonly unknown[] = [], options?: ReadOptions) =>
        direct.send(sql, [environmentId, ...params], options).then((r) => r.rows as T[])
    : <T>(sql: string, params: readonly unknown[] = []) => tx.$queryRawUnsafe<T[]>(sql, environmentId, ...(params as unknown[]));
  const queue = direct
    ? (sql: string, params: readonly unknown[] = [], options?: ReadOptions) =>
        direct.queue(sql, [environmentId, ...params], options)
    : async (sql: string, params: readonly unknown[] = []) => {
        await tx.$executeRawUnsafe(sql, environmentId, ...(params as unknown[]));
      };
  return {
    environmentId,
    read,
    queue,
    // a transaction sees its own writes: nothing remembered there
    readRemembered: (_channel, sql, params) => read(sql, params),
    write: read,
    async lockForUpdate(table, id) {
      const rows = await read<{ id: string }>(
        `SELECT id FROM ${tableIdent(table)} WHERE environment_id = $1 AND id = $2 FOR UPDATE`,
        [id],
      );
      return rows.length > 0;
    },
    async existingIds(table, ids) {
      if (ids.length === 0) return new Set();
      const rows = await read<{ id: string }>(
        `SELECT id FROM ${tableIdent(table)} WHERE environment_id = $1 AND id = ANY($2::text[])`,
        [[...new Set(ids)]],
      );
      return new Set(rows.map((r) => r.id));
    },
    async insert(table, columns) {
      const names: string[] = ['environment_id'];
      const values: unknown[] = [];
      for (const [column, value] of Object.entries(columns)) {
        if (value === undefined || column === 'environment_id') continue;
        names.push(tableIdent(column));
        values.push(value);
      }
      const placeholders = names.map((_, i) => `$${i + 1}`).join(', ');
      // an INSERT's plan cannot depend on its values: prepared per connection, parsed once
      await queue(`INSERT INTO ${tableIdent(table)} (${names.join(', ')}) VALUES (${placeholders})`, values, {
        stablePlan: true,
      });
    },
    async update(table, id, columns) {
      const sets: string[] = [];
      const values: unknown[] = [id];
      for (const [column, value] of Object.entries(columns)) {
        if (value === undefined || column === 'environment_id' || column === 'id') continue;
        values.push(value);
        sets.push(`${tableIdent(column)} = $${values.length + 1}`);
      }
      if (sets.length === 0) return;
      // prepared like insert: the plan of an update by primary key cannot depend on its values
      await queue(`UPDATE ${tableIdent(table)} SET ${sets.join(', ')} WHERE environment_id = $1 AND id = $2`, values, {
        stablePlan: true,
      });
    },
    deleteById(table, id) {
      const sql = `DELETE FROM ${tableIdent(table)} WHERE environment_id = $1 AND id = $2`;
      if (direct) return direct.send(sql, [environmentId, id]).then((r) => r.rowCount ?? 0);
      return tx.$executeRawUnsafe(sql, environmentId, id);
    },
  };
}

/**
 * A transaction of `begin` (Prisma's interactive transaction) with its tenant reader. The
 * reader sends its statements straight on the connection the transaction holds when that
 * one is known for sure (the only connection a guarded pool handed out while the transaction
 * began): the same session and transaction as Prisma's own statements, without Prisma's
 * raw-query layer. Otherwise it goes through Prisma's raw queries, as `transactionReader` does.
 */
export function inTransaction<Tx extends RawTransaction, T>(
  begin: (body: (tx: Tx) => Promise<T>) => Promise<T>,
  environmentId: string,
  body: (tx: Tx, reader: TenantReader) => Promise<T>,
): Promise<T> {
  const capture: CheckoutCapture = { open: true, taken: [] };
  return capturingCheckouts(capture, () =>
    begin((tx) => {
      capture.open = false;
      const [only, ...more] = capture.taken;
      return body(tx, transactionReader(tx, environmentId, only && more.length === 0 ? only : undefined));
    }),
  ).finally(noteRequestWrite);
}
