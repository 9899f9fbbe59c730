// Every pg pool of the service is made here, so that what each pool must do on the
// database it talks to is decided in one place:
// - on the embedded database (PGlite behind pglite-socket) every connection of every
//   process lands on one backend, which keeps named prepared statements after the
//   connection that made them has gone. A pool that reconnects after its idle timeout
//   would then prepare the same name again and fail (42P05). Statements are sent
//   unnamed there, whoever asks for a name (rate-limiter-flexible does).
// - request queries run in a request scope (AsyncLocalStorage): a scope holds at most
//   `connectionsPerKey` connections of the pool at once (its key is the environment),
//   so one environment's slow requests leave connections for the others; a scope that
//   is aborted (the client went away) has its running statements cancelled.
// - every statement has a time limit (`statement_timeout` on a server; on the embedded
//   database, which cannot interrupt a statement, the caller stops waiting).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { forgetPreparedStatement, isPipelined, sendCancelRequest } from './pg-internals.js';
import { fastTypes } from './timestamps.js';

/**
 * What the pool reads of a request's abort signal: an AbortSignal will do, or a RequestGone (an
 * AbortController and its signal cost a read by id about 1 % of its CPU, and most requests never
 * abort).
 */
export interface GoneSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** A request's signal that its client has gone: aborted once, its listeners called once each. */
export class RequestGone implements GoneSignal {
  aborted = false;
  private listeners: (() => void)[] | null = null;

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.aborted) return;
    if (this.listeners === null) this.listeners = [listener];
    else this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const i = this.listeners?.indexOf(listener) ?? -1;
    if (i !== -1) this.listeners?.splice(i, 1);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = null;
    if (listeners) for (const listener of listeners) listener();
  }
}

export interface RequestScope {
  /** what a fair share is counted by: the request's environment */
  key: string;
  /** aborted when the client has gone: running statements are cancelled, new ones refused */
  signal: GoneSignal;
  /** when the request came (performance.now()): what was committed before it, its reads see */
  startedAt?: number;
  /**
   * when the request's last write finished (performance.now()), set by `noteRequestWrite`: a read
   * after it must see it, so a replica read then needs a WAL position taken after it (replicas.ts)
   */
  wroteAt?: number;
  /** the request's id (X-Request-Id): for the log lines and events written in the request */
  requestId?: string;
  /** the request's span when traces are exported (opaque here: the statement tracer reads it) */
  trace?: unknown;
  /** what the request's first write must pass first (its Idempotency-Key's claim), if anything */
  writeGate?: WriteGate;
  /**
   * Several clusters (DATABASE_URLS): the environment whose writes the request makes on that pool (its
   * cluster's) take the environment's write fence first (see `WRITE_FENCE`). Set by the procedure
   * middleware for a mutation; never with one cluster.
   */
  writeFence?: { environmentId: string; pool: GuardedPool };
}

const noPermit = () => {};

/**
 * The write fence of an environment on a database of several clusters (migration
 * 20261127060000_environment_write_fence): a shared advisory lock keyed by the environment, then the
 * check that no move has fenced it off this cluster (SQLSTATE BOMV1 if one has). A move takes the lock
 * exclusively to set the fence: it waits for the writes holding it, and every later one is refused.
 * A write transaction of our own sends it first, for the transaction (pipelined: no round trip); a
 * connection checked out for a write outside one (Prisma's) takes it for the session, until released.
 */
export const WRITE_FENCE = {
  transaction: 'SELECT environment_write_fence($1, false)',
  session: 'SELECT environment_write_fence($1, true)',
  release: 'SELECT environment_write_fence_release($1)',
} as const;

/**
 * Something a request must do before its first write, set on its scope: the claim of its
 * `Idempotency-Key` (@bo/runtime idempotency.ts). A write transaction of our own (tenant.ts)
 * carries it as its first statement, pipelined with the write: no round trip of its own. Every
 * other way a request may write passes it first, here in the guarded pool: a statement that is
 * not a plain read, and every connection checked out (Prisma's transactions).
 */
export interface WriteGate {
  /** true once passed (or no longer guarding): writes go on without asking */
  readonly passed: boolean;
  /** resolves once the gate is passed (waits for a transaction carrying it; passes it apart if none does) */
  pass(): Promise<void>;
  /** the statement a transaction of our own sends first to carry the gate; null: `pass()` first */
  carry(): { text: string; values: unknown[] } | null;
  /** how that transaction ended (its failure, if any); answers the error to throw instead of it, if any */
  carried(committed: boolean, failure: unknown): unknown;
}

/** Sets what the running request's writes must pass first (see WriteGate). */
export function setRequestWriteGate(gate: WriteGate | undefined): void {
  const scope = scopes.getStore();
  if (scope) scope.writeGate = gate;
}

/** The gate the running request's next write must pass, if it is not passed yet. */
export function pendingWriteGate(): WriteGate | undefined {
  const gate = scopes.getStore()?.writeGate;
  return gate && !gate.passed ? gate : undefined;
}

// a statement that only reads: the write gate lets it through (anything else passes the gate first)
const READ_STATEMENT = /^\s*(select|show|explain|values|table)\b/i;
const WRITE_WORD = /\b(insert|update|delete|merge|copy|call|truncate|lock|notify)\b/i;

function mayWrite(config: unknown): boolean {
  const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
  return typeof text !== 'string' || !READ_STATEMENT.test(text) || WRITE_WORD.test(text);
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** The running request's scope, if any (its id, its span). */
export function currentRequestScope(): RequestScope | undefined {
  return scopes.getStore();
}

/**
 * Statement spans: set by the process when it exports traces (@bo/runtime tracing.ts), otherwise
 * null and a statement costs one comparison more. `start` opens a span for a statement sent in a
 * traced request and answers the function that ends it.
 */
export interface StatementTracer {
  start(text: string, scope: RequestScope): (err?: unknown) => void;
}
let statementTracer: StatementTracer | null = null;

export function setStatementTracer(tracer: StatementTracer | null): void {
  statementTracer = tracer;
}

// biome-ignore lint/suspicious/noExplicitAny: pg's query overloads, passed on unchanged
type Send = (config: any, values?: any, callback?: any) => any;

/** Sends a statement through `send`, in a span of its own when the running request is traced. */
// biome-ignore lint/suspicious/noExplicitAny: pg's query overloads, passed on unchanged
function sendTraced(send: Send, config: any, values: any, callback: any): any {
  const scope = statementTracer === null ? undefined : scopes.getStore();
  if (scope?.trace === undefined || statementTracer === null) return send(config, values, callback);
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text !== 'string') return send(config, values, callback);
  const end = statementTracer.start(text, scope);
  if (typeof values === 'function' || typeof callback === 'function') {
    const cb = (typeof values === 'function' ? values : callback) as (err: Error | null, res?: unknown) => void;
    const wrapped = (err: Error | null, res?: unknown) => {
      end(err ?? undefined);
      cb(err, res);
    };
    return typeof values === 'function' ? send(config, wrapped) : send(config, values, wrapped);
  }
  const result = send(config, values);
  if (result && typeof (result as Promise<unknown>).then === 'function') {
    (result as Promise<unknown>).then(
      () => end(),
      (err: unknown) => end(err),
    );
  } else end();
  return result;
}

/** Runs `fn` (and everything it awaits) as one request's database work. */
export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** When the running request came (performance.now()), or now outside any request. */
export function requestStartedAt(): number {
  return scopes.getStore()?.startedAt ?? performance.now();
}

/**
 * Notes that the running request has committed a write (or may have): its later reads, routed to a
 * replica, must see it. Outside a request nothing is noted (such reads ask from the time they start).
 */
export function noteRequestWrite(): void {
  const scope = scopes.getStore();
  if (scope) scope.wroteAt = performance.now();
}

/** What a read of the running request must see: everything committed before this instant (performance.now()). */
export function requestReadsSince(): number {
  const scope = scopes.getStore();
  if (!scope) return performance.now();
  const started = scope.startedAt ?? performance.now();
  return scope.wroteAt !== undefined && scope.wroteAt > started ? scope.wroteAt : started;
}

/**
 * Runs `fn` as the process's own database work, outside whatever request is running: for a
 * read that many requests of many environments await together (a cache refresh). Started
 * inside the request that happened to come first, it would wait in that environment's share
 * (past the timeout behind its slow reads, failing every other environment's request that
 * awaited it) and be cancelled when that one client went away.
 */
export function outsideRequestScope<T>(fn: () => T): T {
  return scopes.exit(fn);
}

/**
 * The connections a transaction opened inside `capturingCheckouts` took from a guarded pool:
 * a write transaction hands its raw statements to the connection Prisma's transaction holds,
 * skipping Prisma's raw-query layer, several times dearer per statement than pg
 * (docs/performance.md). See `inTransaction` in tenant.ts.
 */
export interface CheckoutCapture {
  open: boolean;
  taken: { client: pg.PoolClient; pool: GuardedPool }[];
}

const captures = new AsyncLocalStorage<CheckoutCapture>();

/** Runs `fn` noting every connection a guarded pool hands out in it until `capture.open` is false. */
export function capturingCheckouts<T>(capture: CheckoutCapture, fn: () => T): T {
  return captures.run(capture, fn);
}

function noteCheckout(pool: GuardedPool, client: pg.PoolClient): pg.PoolClient {
  const capture = captures.getStore();
  if (capture?.open) capture.taken.push({ client, pool });
  return client;
}

export interface PoolGuards {
  /** the embedded database: no named statements, no server-side timeout */
  embedded: boolean;
  /**
   * false on a cluster other than the first (DATABASE_URLS): the Idempotency-Key store lives on the
   * first, so a write transaction here cannot carry the key's claim, which is then taken apart first
   */
  holdsIdempotencyKeys?: boolean;
  /**
   * One of several clusters (DATABASE_URLS): environments move between them, so a write of an
   * environment takes its write fence here first (see WRITE_FENCE). Unset with one cluster: nothing added.
   */
  fenced?: boolean;
  /** close a connection idle this long (ms); 0 keeps idle connections open */
  idleTimeoutMs: number;
  /** longest a statement may run (ms); 0 for no limit */
  statementTimeoutMs?: number;
  /** connections one request scope key may hold at once; 0 for no cap */
  connectionsPerKey?: number;
  /** requests of one key that may wait for a connection; beyond, they are refused at once */
  queuePerKey?: number;
  /** the database cluster the pool talks to, as the metrics name it (default `primary`) */
  cluster?: string;
}

/** What the metrics read of a pool at a scrape (see guardedPoolStats). */
export interface PoolStats {
  cluster: string;
  /** connections open, and those of them checked out */
  total: number;
  inUse: number;
  /** checkouts waiting for a connection now */
  waiting: number;
  /** checkouts so far that found every connection busy and had to wait */
  waits: number;
  /** checkouts so far that waited for their environment's fair share */
  fairShareWaits: number;
}

/** the guarded pools of the process that are not ended */
const livePools = new Set<GuardedPool>();

/** Every open guarded pool's counts, read when the metrics are scraped (nothing is counted per statement but two waits). */
export function guardedPoolStats(): PoolStats[] {
  return [...livePools].map((p) => p.stats());
}

export const DEFAULT_IDLE_TIMEOUT_MS = 10_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

/** A database error as pg reports one, so that Prisma's adapter and the domain map it like the server's own. */
export function sqlError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

/**
 * A client for the embedded database: its statements are never named (see above), and a
 * statement the client stopped waiting for (query_timeout) fails like a server's timeout.
 */
class EmbeddedClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; the arguments are passed on unchanged but for the name
  override query(config: any, values?: any, callback?: any): any {
    return sendTraced(this.send, config, values, callback);
  }

  // biome-ignore lint/suspicious/noExplicitAny: as above
  private readonly send = (config: any, values?: any, callback?: any): any => {
    let cfg = config;
    if (cfg && typeof cfg === 'object' && typeof cfg.name === 'string') {
      const { name: _name, ...unnamed } = cfg as { name: string; text: string };
      cfg = unnamed as pg.QueryConfig;
    }
    if (typeof values === 'function') {
      callback = values;
      values = undefined;
    }
    if (typeof callback === 'function') {
      const cb = callback as (err: Error | null, res?: unknown) => void;
      return super.query(cfg, values, (err: Error | null, res: unknown) => cb(err ? asTimeout(err) : err, res));
    }
    const result = super.query(cfg, values);
    return result && typeof (result as Promise<unknown>).then === 'function'
      ? (result as Promise<unknown>).catch((err: Error) => {
          throw asTimeout(err);
        })
      : result;
  };
}

/**
 * The name a read asks for when it wants its statement prepared: the client names it by
 * its text, and PostgreSQL keeps its parse and analysis per connection, and may keep a generic
 * plan. Only statements with a stable plan are sent so (see ReadOptions in client.ts).
 */
export const PREPARED = 'bo:prepared';

/** statements a connection keeps prepared; past it the least recently used is deallocated */
export const PREPARED_PER_CONNECTION = 200;

// statement names by text: hashing a page's select list (kilobytes) at every query showed in profiles
const namesByText = new Map<string, string>();
const NAMES_KEPT = 2_000;

function preparedName(text: string): string {
  let name = namesByText.get(text);
  if (name === undefined) {
    name = `bo_${createHash('sha1').update(text).digest('base64url')}`;
    // the statements a process prepares are few (they come from code, not values); a bound all the same
    if (namesByText.size >= NAMES_KEPT) namesByText.clear();
    namesByText.set(text, name);
  }
  return name;
}

/** A server client that prepares the statements asked for with PREPARED, at most PREPARED_PER_CONNECTION at once. */
class PreparingClient extends pg.Client {
  private readonly prepared = new Map<string, true>();

  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; only a PREPARED config is changed
  override query(config: any, values?: any, callback?: any): any {
    return sendTraced(this.send, config, values, callback);
  }

  // biome-ignore lint/suspicious/noExplicitAny: as above
  private readonly send = (config: any, values?: any, callback?: any): any => {
    if (config && typeof config === 'object' && config.name === PREPARED && typeof config.text === 'string') {
      const name = preparedName(config.text);
      const evicted = this.prepared.has(name) ? undefined : this.evict();
      this.prepared.delete(name);
      this.prepared.set(name, true);
      const named = { ...config, name };
      if (evicted === undefined) return super.query(named, values, callback);
      // pipelined, every statement must be written in the order asked: the DEALLOCATE and then the query at once
      if (isPipelined(this)) {
        super.query(`DEALLOCATE "${evicted}"`, () => {});
        return super.query(named, values, callback);
      }
      // the evicted statement is deallocated first and the query sent once that is done: one
      // query at a time on the connection (pg 9 refuses a query sent while another runs)
      const deallocate = `DEALLOCATE "${evicted}"`;
      const done = typeof values === 'function' ? values : callback;
      if (typeof done === 'function') {
        super.query(deallocate, () => {
          super.query(named, typeof values === 'function' ? undefined : values, done);
        });
        return undefined;
      }
      return super
        .query(deallocate)
        .catch(() => {})
        .then(() => super.query(named, values));
    }
    return super.query(config, values, callback);
  };

  /** forgets the least recently used statement when the bound is reached; answers its name, to deallocate */
  private evict(): string | undefined {
    if (this.prepared.size < PREPARED_PER_CONNECTION) return undefined;
    const oldest = this.prepared.keys().next().value;
    if (oldest === undefined) return undefined;
    this.prepared.delete(oldest);
    forgetPreparedStatement(this, oldest);
    return oldest;
  }
}

function asTimeout(err: Error): Error {
  return err?.message === 'Query read timeout' ? sqlError('57014', 'canceling statement due to statement timeout') : err;
}

/** FIFO permits per key, with a bounded queue and a bounded wait. */
class FairShare {
  /** acquisitions so far that waited (for the metrics) */
  waits = 0;
  private readonly held = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();
  constructor(
    private readonly perKey: number,
    private readonly queuePerKey: number,
    private readonly maxWaitMs: number,
  ) {}

  /** a place of the key's share: at once when one is free (no promise to await), else a promise of one */
  acquire(key: string, signal: GoneSignal): (() => void) | Promise<() => void> {
    const release = () => {
      const queue = this.waiting.get(key);
      const next = queue?.shift();
      if (queue && queue.length === 0) this.waiting.delete(key);
      if (next) next();
      else {
        const n = (this.held.get(key) ?? 1) - 1;
        if (n <= 0) this.held.delete(key);
        else this.held.set(key, n);
      }
    };
    const held = this.held.get(key) ?? 0;
    if (held < this.perKey) {
      this.held.set(key, held + 1);
      return once(release);
    }
    const queue = this.waiting.get(key) ?? [];
    if (queue.length >= this.queuePerKey) {
      return Promise.reject(
        sqlError('53300', 'too many requests of this environment are waiting for the database; retry shortly'),
      );
    }
    this.waiting.set(key, queue);
    return new Promise((resolve, reject) => {
      const give = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(once(release));
      };
      const drop = (err: Error) => {
        const i = queue.indexOf(give);
        if (i !== -1) queue.splice(i, 1);
        if (queue.length === 0 && this.waiting.get(key) === queue) this.waiting.delete(key);
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        reject(err);
      };
      const onAbort = () => drop(sqlError('57014', 'canceling statement due to user request'));
      const timer = setTimeout(() => drop(sqlError('57014', 'canceling statement due to statement timeout')), this.maxWaitMs);
      timer.unref();
      signal.addEventListener('abort', onAbort, { once: true });
      queue.push(give);
      this.waits += 1;
    });
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

/** `options` given in the connection string (kept beside ours). */
function urlOptions(connectionString: string | undefined): string | null {
  try {
    return connectionString ? new URL(connectionString).searchParams.get('options') : null;
  } catch {
    return null;
  }
}

type Released = pg.PoolClient & { release: (err?: Error | boolean) => void };

/**
 * A pg pool with the guards above. Pool.query goes through connect(), so both
 * pooled queries and checked-out clients (Prisma's transactions) are counted.
 */
export class GuardedPool extends pg.Pool {
  private readonly fair: FairShare | null;
  private readonly guards: PoolGuards;
  /** clients each scope has checked out, to cancel their statements when it is aborted */
  private readonly checkedOut = new WeakMap<RequestScope, Set<pg.PoolClient>>();
  /** told the SQL of every statement sent on a captured connection (the client's onQuery) */
  observe: ((sql: string) => void) | undefined;
  /** checkouts that found every connection busy (for the metrics) */
  private waits = 0;
  /** set while a checkout must not pass the request's write gate (a pooled read; a transaction carrying it) */
  private ungated = false;

  /** the pool is the embedded database's */
  get embedded(): boolean {
    return this.guards.embedded;
  }

  /** a write transaction of an environment takes its write fence first (several clusters, see PoolGuards) */
  get fenced(): boolean {
    return this.guards.fenced === true;
  }

  /** a write transaction on this pool may carry the request's Idempotency-Key claim (see PoolGuards) */
  get holdsIdempotencyKeys(): boolean {
    return this.guards.holdsIdempotencyKeys !== false;
  }

  constructor(config: pg.PoolConfig, guards: PoolGuards) {
    const timeout = guards.statementTimeoutMs ?? 0;
    super({
      ...config,
      idleTimeoutMillis: guards.idleTimeoutMs,
      Client: guards.embedded ? EmbeddedClient : PreparingClient,
      types: fastTypes,
      // Only statements whose plan cannot depend on their values are prepared (see ReadOptions
      // in client.ts); every other statement goes unnamed and is planned for its own values.
      ...(guards.embedded
        ? {}
        : {
            options: [
              urlOptions(config.connectionString),
              // JIT compilation cannot be interrupted: a costly query spent a second or more
              // in it, deaf to the timeout and to cancellation. Request queries are short.
              ...(timeout > 0 ? ['-c jit=off'] : []),
            ]
              .filter(Boolean)
              .join(' '),
          }),
      // a server stops the statement itself; PGlite cannot, so there the caller stops waiting
      ...(timeout > 0
        ? guards.embedded
          ? { query_timeout: timeout }
          : { statement_timeout: timeout, idle_in_transaction_session_timeout: Math.max(timeout * 2, 10_000) }
        : {}),
    });
    this.guards = guards;
    const perKey = guards.connectionsPerKey ?? 0;
    // a request waits for its share at most as long as one statement may run (30 s without a limit)
    this.fair = perKey > 0 ? new FairShare(perKey, guards.queuePerKey ?? 100, timeout > 0 ? timeout : 30_000) : null;
    livePools.add(this);
    // pg-pool's query checks a connection out with connect(), synchronously: a statement that only
    // reads goes by the request's write gate (see WriteGate); any other passes it first. Assigned,
    // not overridden, to keep pg's overloads.
    const query = super.query.bind(this) as (...args: unknown[]) => unknown;
    const ungatedQuery = (args: unknown[]): unknown => {
      this.ungated = true;
      try {
        return query(...args);
      } finally {
        this.ungated = false;
      }
    };
    this.query = ((...args: unknown[]) => {
      const scope = scopes.getStore();
      // several clusters: a mutation's write outside a transaction of our own takes the fence first
      if (scope?.writeFence?.pool === this && mayWrite(args[0]))
        return this.fencedQuery(scope, scope.writeFence.environmentId, args);
      const gate = scope?.writeGate;
      if (gate === undefined || gate.passed || !mayWrite(args[0])) return ungatedQuery(args);
      const callback =
        typeof args[args.length - 1] === 'function' ? (args.pop() as (err?: unknown, r?: unknown) => void) : undefined;
      const result = gate.pass().then(() => ungatedQuery(args));
      if (!callback) return result;
      result.then(
        (r) => callback(undefined, r),
        (err: unknown) => callback(err),
      );
      return undefined;
    }) as pg.Pool['query'];
  }

  /** One statement that may write, on a connection holding the environment's write fence (see WRITE_FENCE). */
  private fencedQuery(scope: RequestScope, environmentId: string, args: unknown[]): unknown {
    const callback =
      typeof args[args.length - 1] === 'function' ? (args.pop() as (err?: unknown, r?: unknown) => void) : undefined;
    const result = (async () => {
      const gate = scope.writeGate;
      if (gate && !gate.passed) await gate.pass();
      const client = (await this.connectCarryingGate()) as pg.PoolClient;
      let broken: unknown;
      try {
        // refused (BOMV1) without holding the lock: nothing to release
        await client.query(WRITE_FENCE.session, [environmentId]);
        try {
          return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
        } finally {
          await client.query(WRITE_FENCE.release, [environmentId]).catch((e: unknown) => {
            broken = e;
          });
        }
      } finally {
        client.release(broken instanceof Error ? broken : undefined);
      }
    })();
    if (!callback) return result;
    result.then(
      (r) => callback(undefined, r),
      (err: unknown) => callback(err),
    );
    return undefined;
  }

  stats(): PoolStats {
    return {
      cluster: this.guards.cluster ?? 'primary',
      total: this.totalCount,
      inUse: this.totalCount - this.idleCount,
      waiting: this.waitingCount,
      waits: this.waits,
      fairShareWaits: this.fair?.waits ?? 0,
    };
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg-pool's end is both callback and promise style
  override end(callback?: any): any {
    livePools.delete(this);
    return super.end(callback);
  }

  /** A connection for a write transaction of our own, which carries the request's write gate itself (tenant.ts). */
  connectCarryingGate(): Promise<pg.PoolClient> {
    this.ungated = true;
    try {
      return this.connect() as Promise<pg.PoolClient>;
    } finally {
      this.ungated = false;
    }
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg-pool's connect is both callback and promise style
  override connect(callback?: any): any {
    // every connection busy and no room for another: this checkout waits
    if (this.idleCount === 0 && this.totalCount >= (this.options.max ?? 10)) this.waits += 1;
    const scope = scopes.getStore();
    const gate = this.ungated ? undefined : scope?.writeGate;
    const checkout = scope
      ? this.checkoutInScope(scope, gate !== undefined && !gate.passed ? gate : undefined)
      : captures.getStore()?.open
        ? (super.connect() as Promise<pg.PoolClient>)
        : null;
    if (!checkout) return super.connect(callback);
    // several clusters: a connection a mutation checks out may write (Prisma's transactions): it holds
    // the environment's write fence until it is released (a transaction of our own carries its own)
    const fence = !this.ungated && scope?.writeFence?.pool === this ? scope.writeFence.environmentId : undefined;
    const noted = (fence === undefined ? checkout : checkout.then((client) => holdingFence(client, fence))).then((client) =>
      noteCheckout(this, client),
    );
    if (typeof callback !== 'function') return noted;
    noted.then(
      (client) => callback(undefined, client, client.release),
      (err: Error) => callback(err, undefined, () => {}),
    );
    return undefined;
  }

  private async checkoutInScope(scope: RequestScope, gate: WriteGate | undefined): Promise<pg.PoolClient> {
    if (scope.signal.aborted) throw sqlError('57014', 'canceling statement due to user request');
    // a connection checked out may write (Prisma's transactions): the gate first, before holding one
    if (gate) await gate.pass();
    const place = this.fair ? this.fair.acquire(scope.key, scope.signal) : noPermit;
    const permit = typeof place === 'function' ? place : await place;
    let client: Released;
    try {
      client = (await super.connect()) as Released;
    } catch (err) {
      permit();
      throw err;
    }
    let held = this.checkedOut.get(scope);
    if (!held) {
      held = new Set();
      this.checkedOut.set(scope, held);
      scope.signal.addEventListener('abort', () => this.cancelScope(scope), { once: true });
    }
    held.add(client);
    const release = client.release.bind(client);
    let released = false;
    client.release = (err?: Error | boolean) => {
      if (!released) {
        released = true;
        held.delete(client);
        permit();
      }
      return release(err);
    };
    return client;
  }

  /**
   * The client has gone: stop what its request is running on the server. A cancel that
   * reaches a backend between two protocol messages (after planning, before Execute) is
   * dropped by PostgreSQL, so it is sent again while the connection is still held.
   */
  private cancelScope(scope: RequestScope): void {
    if (this.guards.embedded) return; // PGlite has one backend and no way to interrupt it
    const held = this.checkedOut.get(scope);
    if (!held) return;
    for (const client of held) sendCancelRequest(client);
    let tries = 0;
    const again = setInterval(() => {
      tries += 1;
      if (held.size === 0 || tries > 50) {
        clearInterval(again);
        return;
      }
      for (const client of held) sendCancelRequest(client);
    }, 100);
    again.unref();
  }
}

/** The checked-out connection, holding the environment's write fence for its session until it is released. */
async function holdingFence(client: pg.PoolClient, environmentId: string): Promise<pg.PoolClient> {
  try {
    await client.query(WRITE_FENCE.session, [environmentId]);
  } catch (err) {
    // refused (BOMV1): the function let the lock go before refusing
    client.release();
    throw err;
  }
  const release = client.release.bind(client);
  let released = false;
  client.release = (err?: Error | boolean) => {
    if (released) return;
    released = true;
    // a broken connection is closed, its session locks with it
    if (err) return release(err);
    client.query(WRITE_FENCE.release, [environmentId]).then(
      () => release(),
      (e: Error) => release(e),
    );
  };
  return client;
}

/** Any other pool of the service (rate limiter, job queue): the same rules of the database, no request guards. */
export function poolConfig(
  connectionString: string,
  guards: Pick<PoolGuards, 'embedded' | 'idleTimeoutMs'>,
  extra: pg.PoolConfig = {},
): pg.PoolConfig {
  return {
    connectionString,
    ...extra,
    idleTimeoutMillis: guards.idleTimeoutMs,
    ...(guards.embedded ? { Client: EmbeddedClient } : {}),
  };
}

/** Whether pool settings are the embedded database's (poolConfig() gave them its client): one connection for everyone. */
export function isEmbeddedPoolConfig(config: pg.PoolConfig): boolean {
  return config.Client === EmbeddedClient;
}
