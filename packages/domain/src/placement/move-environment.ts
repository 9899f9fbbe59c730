import { GLOBAL_TABLES, PLACEMENT_TTL_MS, type Placement, type PrismaClient, placementOf, tableIdent } from '@bo/db';
import { z } from 'zod';
import { BusinessRuleError, NotFoundError } from '../shared/errors.js';
import { dispatchEvents } from '../webhooks/dispatch-events.js';
import { barrierBackOffMs } from '../webhooks/delivery-policy.js';

/**
 * `admin environment move <env> <cluster>` (docs/scaling.md, "Placement"): the environment's tenant
 * rows go to another cluster of DATABASE_URLS with the same ids, while it stays readable.
 *
 * 1. bulk: every tenant table is copied (upserts, in pages), reads and writes go on on the old cluster;
 * 2. freeze: the placement says writes are frozen; after PLACEMENT_TTL_MS every process knows it and
 *    refuses the environment's mutations (503, Retry-After); the move then fences the environment off
 *    the old cluster (environment_fence, under the write fence's lock taken exclusively: it waits for
 *    the writes admitted before whose transactions run, and refuses those that begin later, 503 too),
 *    and waits for the old cluster's other transactions that began before that moment to end;
 * 3. catch-up: rows written since the bulk began (by their row version's transaction id, xmin: exact,
 *    whatever the table's columns and the clocks) replace their copies, rows deleted meanwhile are deleted
 *    (both before the copy, so no stale row holds a unique value a changed row has now); the outbox's events
 *    are first dispatched to deliveries on the old cluster, and the new cluster's event sequence is
 *    raised past the environment's events, so its change feed and webhooks go on without gap or repeat;
 * 4. switch: the placement names the new cluster, writes still frozen; after PLACEMENT_TTL_MS no
 *    process routes to the old cluster any more, and writes are let go (to the new one);
 * 5. the old copy is removed.
 * Writes are refused from 2 to 4 only: the report gives that span.
 */
export const moveEnvironmentInput = z.object({
  environment: z.string().min(1),
  cluster: z.number().int().min(0),
  /** rows per page of the copy */
  batchSize: z.number().int().positive().optional(),
});

export interface MoveReport {
  environment: string;
  from: number;
  to: number;
  /** rows copied in the bulk phase and in the catch-up */
  rows: number;
  caughtUpRows: number;
  deletedRows: number;
  /** how long the environment's writes were refused (ms): freeze to release */
  writesBlockedMs: number;
  totalMs: number;
}

/**
 * tables with an environment_id that never move: global data (the first cluster's), and each
 * cluster's own write fences
 */
const STAYING_TABLES = new Set([...GLOBAL_TABLES, 'environment_fence']);

/** rows per page of the catch-up (the writes are refused meanwhile: large pages) */
const CATCH_UP_BATCH = 5_000;
/** the longest the move waits for writes admitted before the freeze to end */
const DRAIN_LIMIT_MS = 15_000;

interface MovedTable {
  name: string;
  key: string[];
  /** every column but generated ones */
  columns: string[];
}

/** the tenant tables of the schema, parents first (the order does not matter to the copy: FK triggers are off) */
async function tenantTables(prisma: PrismaClient): Promise<MovedTable[]> {
  const rows = await prisma.$queryRawUnsafe<{ table_name: string; columns: string[]; key: string[] }[]>(
    `SELECT c.relname::text AS table_name,
            array(SELECT a.attname::text FROM pg_attribute a
                   WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
                   ORDER BY a.attnum) AS columns,
            array(SELECT a.attname::text FROM pg_index i
                    CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, n)
                    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                   WHERE i.indrelid = c.oid AND i.indisprimary ORDER BY k.n) AS key
       FROM pg_class c
      WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace
        AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'environment_id' AND NOT a.attisdropped)
      ORDER BY c.relname`,
  );
  return rows
    .filter((r) => !STAYING_TABLES.has(r.table_name))
    .map((r) => {
      if (r.key.length === 0) throw new Error(`table ${r.table_name} has no primary key: it cannot be moved`);
      return { name: r.table_name, key: r.key, columns: r.columns };
    });
}

const list = (names: string[]) => names.map(tableIdent).join(', ');

/**
 * Where the catch-up starts: the oldest transaction id still running on the old cluster when the bulk
 * began (32 bits, as a row's xmin holds it). Every row version the bulk may have missed was written by
 * that transaction or a later one. PostgreSQL keeps a row's xmin when it freezes the row (9.4 and later),
 * so `age(xmin)` orders rows by when they were written for 2^31 transactions: a move is far shorter.
 * (It was updated_at less 10 s: Prisma sets updated_at from the API's clock, and a table without the
 * column, such as the addresses, was copied whole while writes were refused.)
 */
type CatchUpFrom = string;

/**
 * One page of a table's rows of the environment, as JSON text (every type round-trips through its text
 * form), in key order after the key `after` (JSON of the last page's last key; null: from the start).
 * Pages follow the key, not an offset: a row deleted meanwhile before the offset shifted every later row
 * one place back, and the bulk copy, which runs while the environment is written, skipped one row that
 * nothing wrote again, so the catch-up never brought it.
 */
async function readPage(
  source: PrismaClient,
  table: MovedTable,
  environmentId: string,
  after: string | null,
  limit: number,
  since: CatchUpFrom | null,
): Promise<{ json: string; n: number; last: string | null }> {
  const keys = list(table.key);
  const params: unknown[] = [environmentId, limit];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const from = after
    ? `AND (${keys}) > (SELECT ${keys} FROM json_populate_record(NULL::${tableIdent(table.name)}, ${param(after)}::json))`
    : '';
  const filter = since ? `AND age(xmin) <= age(${param(since)}::text::xid)` : '';
  const lastFirst = table.key.map((c) => `${tableIdent(c)} DESC`).join(', ');
  const [row] = await source.$queryRawUnsafe<{ json: string; n: number; last: string | null }[]>(
    `WITH page AS (
       SELECT ${list(table.columns)} FROM ${tableIdent(table.name)}
        WHERE environment_id = $1 ${from} ${filter} ORDER BY ${keys} LIMIT $2)
     SELECT coalesce(json_agg(page), '[]')::text AS json, count(*)::int AS n,
            (SELECT row_to_json(k)::text FROM (SELECT ${keys} FROM page ORDER BY ${lastFirst} LIMIT 1) k) AS last
       FROM page`,
    ...params,
  );
  return row ?? { json: '[]', n: 0, last: null };
}

/** Upserts rows on the target, its foreign-key and other triggers off for the copy (session_replication_role). */
async function writeRows(target: PrismaClient, table: MovedTable, json: string): Promise<void> {
  const others = table.columns.filter((c) => !table.key.includes(c));
  const onConflict =
    others.length > 0
      ? `DO UPDATE SET ${others.map((c) => `${tableIdent(c)} = EXCLUDED.${tableIdent(c)}`).join(', ')}`
      : 'DO NOTHING';
  await target.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL session_replication_role = replica');
      await tx.$executeRawUnsafe(
        `INSERT INTO ${tableIdent(table.name)} (${list(table.columns)})
         SELECT ${list(table.columns)} FROM json_populate_recordset(NULL::${tableIdent(table.name)}, $1::json)
         ON CONFLICT (${list(table.key)}) ${onConflict}`,
        json,
      );
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

async function copyTable(
  source: PrismaClient,
  target: PrismaClient,
  table: MovedTable,
  environmentId: string,
  batchSize: number,
  since: CatchUpFrom | null,
  afterPage?: (table: string, copied: number) => Promise<void>,
): Promise<number> {
  let copied = 0;
  let after: string | null = null;
  for (;;) {
    const page = await readPage(source, table, environmentId, after, batchSize, since);
    if (page.n === 0) return copied;
    await writeRows(target, table, page.json);
    copied += page.n;
    after = page.last;
    await afterPage?.(table.name, copied);
    if (page.n < batchSize) return copied;
  }
}

/** Deletes the target's rows of the environment whose key the source no longer has. */
async function deleteGone(source: PrismaClient, target: PrismaClient, table: MovedTable, environmentId: string): Promise<number> {
  const [keys] = await source.$queryRawUnsafe<{ json: string }[]>(
    `SELECT coalesce(json_agg(t), '[]')::text AS json FROM (SELECT ${list(table.key)} FROM ${tableIdent(table.name)} WHERE environment_id = $1) t`,
    environmentId,
  );
  return target.$transaction(async (tx) => {
    await tx.$executeRawUnsafe('SET LOCAL session_replication_role = replica');
    return tx.$executeRawUnsafe(
      `DELETE FROM ${tableIdent(table.name)} WHERE environment_id = $1 AND (${list(table.key)}) NOT IN
         (SELECT ${list(table.key)} FROM json_populate_recordset(NULL::${tableIdent(table.name)}, $2::json))`,
      environmentId,
      keys?.json ?? '[]',
    );
  });
}

/**
 * Makes room on the target for the catch-up of a table: deletes the old versions of the rows written
 * since the bulk began (they are copied again), then the rows the source deleted meanwhile. What is
 * left is the source's unchanged rows, so the changed rows go in without meeting a stale row on any
 * unique key: a row deleted and made again with the same unique value, or two rows that swapped one,
 * were refused (23505) by the upsert, whose ON CONFLICT covers the primary key only. Only the changed
 * rows' keys travel; every key is compared only when the count says rows were deleted (an unchanged
 * row was on the source before the bulk began, so the bulk copied it). Returns the rows deleted for good.
 */
async function clearForCatchUp(
  source: PrismaClient,
  target: PrismaClient,
  table: MovedTable,
  environmentId: string,
  since: CatchUpFrom,
): Promise<number> {
  const keys = list(table.key);
  const changedRow = `age(xmin) <= age($2::text::xid)`;
  const [row] = await source.$queryRawUnsafe<{ changed: string; unchanged: number }[]>(
    `SELECT coalesce(json_agg(json_build_object(${table.key.map((k) => `'${k}', ${tableIdent(k)}`).join(', ')}))
                      FILTER (WHERE ${changedRow}), '[]')::text AS changed,
            (count(*) FILTER (WHERE NOT ${changedRow}))::int AS unchanged
       FROM ${tableIdent(table.name)} WHERE environment_id = $1`,
    environmentId,
    since,
  );
  const left = await target.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL session_replication_role = replica');
      await tx.$executeRawUnsafe(
        `DELETE FROM ${tableIdent(table.name)} WHERE environment_id = $1
            AND (${keys}) IN (SELECT ${keys} FROM json_populate_recordset(NULL::${tableIdent(table.name)}, $2::json))`,
        environmentId,
        row?.changed ?? '[]',
      );
      const [n] = await tx.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM ${tableIdent(table.name)} WHERE environment_id = $1`,
        environmentId,
      );
      return n?.n ?? 0;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  const unchanged = row?.unchanged ?? 0;
  // fewer would be rows the bulk did not copy: the move stops (and rolls back) rather than lose them
  if (left < unchanged) throw new Error(`${table.name}: ${unchanged - left} unchanged rows are missing on the new cluster`);
  return left > unchanged ? deleteGone(source, target, table, environmentId) : 0;
}

/** The environment's row count of every table, in one statement. */
async function countRows(prisma: PrismaClient, tables: MovedTable[], environmentId: string): Promise<Map<string, number>> {
  const parts = tables.map((t, i) => `SELECT ${i} AS i, count(*)::int AS n FROM ${tableIdent(t.name)} WHERE environment_id = $1`);
  const rows = await prisma.$queryRawUnsafe<{ i: number; n: number }[]>(parts.join(' UNION ALL '), environmentId);
  return new Map(rows.map((r) => [tables[r.i]?.name ?? '', r.n]));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** the advisory lock of environment_write_fence (migration 20261127060000): its first key, the environment's hash the second */
const WRITE_FENCE_LOCK = 1651469686;

/**
 * Fences the environment off the source cluster: the write fence's lock, taken exclusively, waits for
 * every write holding it (admitted before the freeze, however late its transaction began), and the
 * fence row it writes refuses every later one (503), from any process, whatever placement it remembers.
 */
async function fenceOff(source: PrismaClient, environmentId: string): Promise<void> {
  await source.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${DRAIN_LIMIT_MS}`);
      await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${DRAIN_LIMIT_MS}`);
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${WRITE_FENCE_LOCK}, hashtext($1))`, environmentId);
      await tx.$executeRawUnsafe(
        'INSERT INTO environment_fence (environment_id) VALUES ($1) ON CONFLICT (environment_id) DO UPDATE SET moved_at = now()',
        environmentId,
      );
    },
    { timeout: DRAIN_LIMIT_MS + 5_000, maxWait: 10_000 },
  );
}

/** The environment may be written on the cluster again (it moves there, or its move failed). */
async function fenceDown(cluster: PrismaClient, environmentId: string): Promise<void> {
  await cluster.$executeRawUnsafe('DELETE FROM environment_fence WHERE environment_id = $1', environmentId);
}

/** Waits until every transaction of the source cluster that began before `since` has ended. */
async function drain(source: PrismaClient, since: Date): Promise<void> {
  const until = performance.now() + DRAIN_LIMIT_MS;
  for (;;) {
    const [row] = await source.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
          AND xact_start IS NOT NULL AND xact_start < $1`,
      since,
    );
    if ((row?.n ?? 0) === 0) return;
    if (performance.now() > until) throw new Error('writes admitted before the freeze did not end in time');
    await sleep(50);
  }
}

/**
 * Every event of the environment has its deliveries on the source (so the copied deliveries are all of
 * them). The environment's writers are frozen, but those of other environments on the cluster are not:
 * a barrier that gave up to one holding the outbox is tried again after the barrier's back-off (not back
 * to back, which stalled that writer every 50 ms and gave up on the move after about 5 s), within the
 * drain's limit.
 */
export async function dispatchAll(source: PrismaClient, environmentId: string, limitMs = DRAIN_LIMIT_MS): Promise<void> {
  const until = performance.now() + limitMs;
  for (let inARow = 0; ; ) {
    const [row] = await source.$queryRawUnsafe<{ behind: boolean }[]>(
      `SELECT coalesce((SELECT max(seq) FROM event WHERE environment_id = $1), 0)
              > coalesce((SELECT last_seq FROM webhook_dispatch_cursor WHERE id = 1), 0) AS behind`,
      environmentId,
    );
    if (!row?.behind) return;
    if (performance.now() > until) throw new Error('the outbox of the old cluster could not be dispatched in time');
    const { gaveUp } = await dispatchEvents(source, { barrier: true });
    inARow = gaveUp ? inARow + 1 : 0;
    if (gaveUp) await sleep(barrierBackOffMs(inARow));
  }
}

export async function moveEnvironment(
  ctx: {
    prisma: PrismaClient;
    log?: (line: string) => void;
    /** awaited between the bulk copy and the freeze (the environment still in service): tests write there */
    afterBulkCopy?: () => Promise<void>;
    /** awaited after each page of the bulk copy (the table, its rows copied so far): tests write there too */
    afterBulkPage?: (table: string, copied: number) => Promise<void>;
  },
  input: z.input<typeof moveEnvironmentInput>,
): Promise<MoveReport> {
  const { environment, cluster: to, batchSize = 2_000 } = moveEnvironmentInput.parse(input);
  const placement: Placement | undefined = placementOf(ctx.prisma);
  if (!placement) throw new BusinessRuleError('one database cluster only: set DATABASE_URLS to move environments');
  const log = ctx.log ?? (() => {});
  const started = performance.now();
  const env = await placement.global.prisma.environment.findUnique({ where: { name: environment } });
  if (!env) throw new NotFoundError(`environment ${environment} does not exist`);
  const target = placement.cluster(to);
  const place = await placement.read(env.id);
  const from = place.cluster.index;
  if (from === to) throw new BusinessRuleError(`environment ${environment} is on cluster ${to} already`);
  if (place.writesFrozen) throw new BusinessRuleError(`environment ${environment} is being moved already`);
  const source = place.cluster.prisma;
  const tables = await tenantTables(source);
  // the new cluster must have every table the old one has (the same migrations)
  const targetTables = new Set((await tenantTables(target.prisma)).map((t) => t.name));
  const missing = tables.filter((t) => !targetTables.has(t.name)).map((t) => t.name);
  if (missing.length > 0) throw new BusinessRuleError(`cluster ${to} lacks ${missing.join(', ')}: run db:migrate`);

  // the environment's row, copied for the joins of the new cluster's worker (the first cluster's is the real one)
  if (to !== 0) {
    await target.prisma.$executeRawUnsafe(
      'INSERT INTO environment (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING',
      env.id,
      env.name,
      env.createdAt,
    );
  }

  // 1. bulk, with the environment in service
  // a row a transaction running now (or a later one) writes has that transaction's id, or a later one, as xmin
  const [mark] = await source.$queryRawUnsafe<{ since: string }[]>(
    `SELECT (pg_snapshot_xmin(pg_current_snapshot())::text::bigint % 4294967296)::text AS since`,
  );
  if (!mark) throw new Error('the old cluster did not tell its oldest running transaction');
  const since: CatchUpFrom = mark.since;
  let rows = 0;
  for (const table of tables) rows += await copyTable(source, target.prisma, table, env.id, batchSize, null, ctx.afterBulkPage);
  log(`copied ${rows} rows of ${environment} to cluster ${to} while it kept serving`);
  await ctx.afterBulkCopy?.();

  // 2. freeze writes, wait until every process knows, and for writes admitted before
  let frozenAt = performance.now();
  let caughtUpRows = 0;
  let deletedRows = 0;
  try {
    await placement.set(env.id, from, true);
    frozenAt = performance.now();
    await sleep(PLACEMENT_TTL_MS + 250);
    // writes admitted before the freeze whose transaction is running end first; those still to begin are refused
    await fenceOff(source, env.id);
    // and any other write (one of no request: a job's) that began before now
    const [now] = await source.$queryRawUnsafe<{ at: Date }[]>('SELECT now() AS at');
    await drain(source, now?.at ?? new Date());

    // 3. catch-up
    await dispatchAll(source, env.id);
    const [sourceCounts, targetCounts] = await Promise.all([
      countRows(source, tables, env.id),
      countRows(target.prisma, tables, env.id),
    ]);
    // tables the environment has no row in, on either side, have nothing to catch up
    const touched = tables.filter((t) => (sourceCounts.get(t.name) ?? 0) > 0 || (targetCounts.get(t.name) ?? 0) > 0);
    for (const table of touched) {
      deletedRows += await clearForCatchUp(source, target.prisma, table, env.id, since);
      caughtUpRows += await copyTable(source, target.prisma, table, env.id, CATCH_UP_BATCH, since);
    }
    // the environment's next events come after every event it had: its feed cursors stay good
    await target.prisma.$queryRawUnsafe(
      `SELECT setval('event_seq_seq', greatest((SELECT last_value FROM event_seq_seq),
                                              (SELECT coalesce(max(seq), 1) FROM event WHERE environment_id = $1)))`,
      env.id,
    );
    // the new cluster takes the environment's writes from the switch on (a fence of an earlier move away goes)
    await fenceDown(target.prisma, env.id);
  } catch (err) {
    // nothing switched: the old cluster keeps the environment, writes go on there
    await fenceDown(source, env.id);
    await placement.set(env.id, from, false);
    throw err;
  }
  // 4. switch, writes still frozen until no process routes to the old cluster
  await placement.set(env.id, to, true);
  await sleep(PLACEMENT_TTL_MS + 250);
  await placement.set(env.id, to, false);
  const writesBlockedMs = Math.round(performance.now() - frozenAt);
  log(`${environment} is on cluster ${to}; its writes were refused for ${writesBlockedMs} ms`);

  // 5. the old copy goes
  const left = await countRows(source, tables, env.id);
  for (const table of tables.filter((t) => (left.get(t.name) ?? 0) > 0)) {
    await source.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe('SET LOCAL session_replication_role = replica');
        await tx.$executeRawUnsafe(`DELETE FROM ${tableIdent(table.name)} WHERE environment_id = $1`, env.id);
      },
      { timeout: 120_000 },
    );
  }
  if (from !== 0) await source.$executeRawUnsafe('DELETE FROM environment WHERE id = $1', env.id);
  return {
    environment,
    from,
    to,
    rows,
    caughtUpRows,
    deletedRows,
    writesBlockedMs,
    totalMs: Math.round(performance.now() - started),
  };
}
