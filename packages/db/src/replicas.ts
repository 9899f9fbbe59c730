// Reads on streaming replicas (DATABASE_REPLICA_URLS), and every read still sees every earlier write.
//
// The rule a routed read keeps (docs/scaling.md, "Read replicas"): a read that starts after a write's
// answer was sent sees that write, whatever process, wire version or token made it. It is kept with
// two WAL positions and no state of our own:
// - L, the primary's WAL insert position read after the read's request started (or after its own last
//   write): the catch-up query of the process's listening connection carries it (notifications.ts),
//   the query that remembered reads already wait for, one serving every request that waits at once.
//   Every commit acknowledged before the request started ends at or before L.
// - the replica's replay position, checked on the very connection the read then runs on, in the same
//   round trip: `pg_is_in_recovery() AND pg_last_wal_replay_lsn() >= L`, pipelined just before the
//   read. The read's snapshot is taken after that check, and replay only moves forward, so when the
//   check holds the read sees every commit up to L. When it does not (the replica lags, was promoted),
//   the answer is dropped and the read runs on the primary.
// A replica that lags more than REPLICA_MAX_LAG_MS (measured by a poll), or failed a connection or a
// statement, is not used until a background poll finds it well again: such reads go to the primary.
// Costs latency, never an error or a stale answer. Without replicas none of this exists (zero cost).
import type pg from 'pg';
import type { ReadOptions } from './client.js';
import type { NotificationListener } from './notifications.js';
import { setReplicaLag } from './observed.js';
import { setPipelined } from './pg-internals.js';
import { type GuardedPool, PREPARED, requestReadsSince } from './pool.js';

export interface ReplicaRouterOptions {
  /** REPLICA_MAX_LAG_MS: a replica further behind than this is not used */
  maxLagMs: number;
  /** how often each replica's replay position is polled (ms) */
  pollMs?: number;
  /** how often a replica marked down is tried again (ms) */
  retryMs?: number;
  log?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

export const DEFAULT_REPLICA_MAX_LAG_MS = 1_000;
const DEFAULT_POLL_MS = 100;
const DEFAULT_RETRY_MS = 250;

/** One replica as the router sees it (for metrics, logs and tests). */
export interface ReplicaStatus {
  /** host:port/database, no credentials */
  name: string;
  /** answered its last poll and statement */
  up: boolean;
  /** in recovery (a streaming standby); false once promoted */
  standby: boolean;
  /** how far behind the primary it was at its last poll (ms) */
  lagMs: number;
  /** reads answered by it */
  reads: number;
  /** reads it was asked but had not replayed far enough for (answered by the primary) */
  behind: number;
  /** statements or connections that failed on it (answered by the primary) */
  failures: number;
}

interface Replica extends ReplicaStatus {
  pool: GuardedPool;
  polling: boolean;
  nextPollAt: number;
}

/** A WAL position ('16/B374D848') as a number that orders like it (exact below 2^53 bytes of WAL). */
export function lsnValue(lsn: string): number {
  const slash = lsn.indexOf('/');
  return Number.parseInt(lsn.slice(0, slash), 16) * 2 ** 32 + Number.parseInt(lsn.slice(slash + 1), 16);
}

/** the check sent before a routed read, on its connection; a stable plan, prepared once per connection */
const CHECK_SQL = 'SELECT (pg_is_in_recovery() AND pg_last_wal_replay_lsn() >= $1::pg_lsn) AS ok';
const POLL_SQL = 'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replay';

/** A failure that says the replica (not the statement) is unwell: connection, shutdown, resources. */
function replicaFault(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (!/^[0-9A-Z]{5}$/.test(code)) return true; // a socket error, a refused or timed-out connection
  return e?.severity === 'FATAL' || e?.severity === 'PANIC' || /^(08|57P|53|58|XX)/.test(code);
}

/** A failure the statement itself caused (bad input, a timeout of its own): the primary would answer the same. */
function statementsOwn(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|42|57014)/.test(code) && !replicaFault(err);
}

export class ReplicaRouter {
  private readonly replicas: Replica[];
  /** the primary's WAL positions seen by the polls, oldest first: how long a replica has been behind */
  private readonly samples: { at: number; lsn: number }[] = [];
  private readonly timer: NodeJS.Timeout;
  private turn = 0;
  private closed = false;
  /** reads that went to the primary because no replica could answer them */
  primaryReads = 0;

  constructor(
    pools: { name: string; pool: GuardedPool }[],
    private readonly listener: NotificationListener,
    private readonly opts: ReplicaRouterOptions,
  ) {
    const now = performance.now();
    this.replicas = pools.map(({ name, pool }) => ({
      name,
      pool,
      up: false,
      standby: false,
      lagMs: Number.POSITIVE_INFINITY,
      reads: 0,
      behind: 0,
      failures: 0,
      polling: false,
      nextPollAt: now,
    }));
    for (const r of this.replicas) void this.poll(r);
    const every = Math.min(opts.pollMs ?? DEFAULT_POLL_MS, opts.retryMs ?? DEFAULT_RETRY_MS);
    this.timer = setInterval(() => {
      const at = performance.now();
      for (const r of this.replicas) if (at >= r.nextPollAt) void this.poll(r);
    }, every);
    this.timer.unref();
  }

  status(): ReplicaStatus[] {
    return this.replicas.map(({ name, up, standby, lagMs, reads, behind, failures }) => ({
      name,
      up,
      standby,
      lagMs,
      reads,
      behind,
      failures,
    }));
  }

  /**
   * Runs a read on a replica that has replayed everything the running request must see, or else
   * on the primary (`primary`). Never fails because of a replica.
   */
  async read<T>(sql: string, values: unknown[], options: ReadOptions | undefined, primary: () => Promise<T[]>): Promise<T[]> {
    const replica = this.pick();
    if (!replica) {
      this.primaryReads += 1;
      return primary();
    }
    const lsn = await this.listener.walPositionSince(requestReadsSince());
    if (lsn === null) {
      this.primaryReads += 1;
      return primary();
    }
    let rows: T[] | null;
    try {
      rows = await this.checkedRead<T>(replica, lsn, sql, values, options);
    } catch (err) {
      if (statementsOwn(err)) throw err;
      replica.failures += 1;
      if (replicaFault(err)) this.markDown(replica, err);
      this.primaryReads += 1;
      return primary();
    }
    if (rows === null) {
      replica.behind += 1;
      this.primaryReads += 1;
      return primary();
    }
    replica.reads += 1;
    return rows;
  }

  /** The next usable replica, round robin: up, a standby, lagging at most REPLICA_MAX_LAG_MS. */
  private pick(): Replica | undefined {
    const n = this.replicas.length;
    for (let i = 0; i < n; i += 1) {
      this.turn = (this.turn + 1) % n;
      const r = this.replicas[this.turn];
      if (r?.up && r.standby && r.lagMs <= this.opts.maxLagMs) return r;
    }
    return undefined;
  }

  /** The check and the read in one round trip on one connection; null when the replica is not far enough. */
  private async checkedRead<T>(
    replica: Replica,
    lsn: string,
    sql: string,
    values: unknown[],
    options: ReadOptions | undefined,
  ): Promise<T[] | null> {
    const client = (await replica.pool.connect()) as pg.PoolClient;
    let broken: Error | undefined;
    setPipelined(client, true);
    try {
      const check = client.query<{ ok: boolean | null }>({ name: PREPARED, text: CHECK_SQL, values: [lsn] });
      const read = client.query(options?.stablePlan ? { name: PREPARED, text: sql, values } : { text: sql, values });
      // both answers are awaited, so that nothing is in flight when the connection goes back
      const [checked, answered] = await Promise.allSettled([check, read]);
      if (checked.status === 'rejected') throw checked.reason;
      if (checked.value.rows[0]?.ok !== true) return null;
      if (answered.status === 'rejected') throw answered.reason;
      return (answered.value as pg.QueryResult).rows as T[];
    } catch (err) {
      if (replicaFault(err)) broken = err instanceof Error ? err : new Error(String(err));
      throw err;
    } finally {
      setPipelined(client, false);
      // a connection that failed is closed by the pool, not handed out again
      client.release(broken);
    }
  }

  private markDown(replica: Replica, err: unknown): void {
    if (replica.up) this.opts.log?.warn({ replica: replica.name, err }, 'read replica failed; its reads go to the primary');
    replica.up = false;
    setReplicaLag(replica.name, null);
    replica.nextPollAt = performance.now() + (this.opts.retryMs ?? DEFAULT_RETRY_MS);
  }

  private async poll(replica: Replica): Promise<void> {
    if (replica.polling || this.closed) return;
    replica.polling = true;
    const started = performance.now();
    try {
      // the primary's position first: a replica that has replayed it was at most this far behind
      const primary = await this.listener.walPositionSince(started);
      if (primary !== null) this.sample(started, lsnValue(primary));
      const { rows } = (await replica.pool.query(POLL_SQL)) as pg.QueryResult<{ standby: boolean; replay: string | null }>;
      const row = rows[0];
      const at = performance.now();
      replica.standby = row?.standby === true;
      replica.lagMs = row?.replay ? this.lagOf(lsnValue(row.replay), at) : Number.POSITIVE_INFINITY;
      // the operator's gauge (/metrics): a lag that cannot be told (no replay position) is no figure
      setReplicaLag(replica.name, Number.isFinite(replica.lagMs) ? replica.lagMs / 1000 : null);
      if (!replica.up) this.opts.log?.info({ replica: replica.name, lagMs: replica.lagMs }, 'read replica answers');
      replica.up = true;
      replica.nextPollAt = at + (this.opts.pollMs ?? DEFAULT_POLL_MS);
    } catch (err) {
      this.markDown(replica, err);
    } finally {
      replica.polling = false;
    }
  }

  private sample(at: number, lsn: number): void {
    const last = this.samples.at(-1);
    if (last && last.lsn >= lsn) return; // nothing written since: the older sample says when it began
    this.samples.push({ at, lsn });
    // kept long enough to tell any lag past the limit (older ones add nothing)
    const keep = Math.max(10 * this.opts.maxLagMs, 10_000);
    while (this.samples.length > 1 && (this.samples[0]?.at ?? at) < at - keep) this.samples.shift();
  }

  /** since when the replica has been behind: the oldest primary position it has not replayed */
  private lagOf(replay: number, at: number): number {
    for (const s of this.samples) if (s.lsn > replay) return Math.max(0, at - s.at);
    return 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((r) => r.pool.end().catch(() => {})));
    await this.listener.close();
  }
}

/** host:port/database of a connection string, without credentials (for logs). */
export function replicaName(connectionString: string): string {
  try {
    const u = new URL(connectionString);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'replica';
  }
}
