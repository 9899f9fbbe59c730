// LISTEN/NOTIFY for the whole process: one dedicated connection holds LISTEN for
// every channel anyone subscribed to, so that several users in one process (the
// webhook loop, a cache) cost one connection, not one each. A notification is a
// hint that something changed, never the change itself: callers keep a poll as the
// fallback and read the database for what changed.
import pg from 'pg';
import { destroySocket } from './pg-internals.js';
import { isEmbeddedPoolConfig } from './pool.js';

export interface NotificationLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface NotificationListenerOptions {
  /** the database to listen on; when absent, the pool settings' own connectionString */
  connectionString?: string;
  /** the settings every pool on this database gets (Database.poolConfig()) */
  pool?: pg.PoolConfig;
  /** the embedded database (PGlite, one connection for everyone): nothing is started there.
   *  Default: what the pool settings say (poolConfig() marks the embedded database's). */
  embedded?: boolean;
  log?: NotificationLog;
  /** first and longest wait before reconnecting (ms); doubled with each failed attempt, with jitter */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /**
   * how often the connection is checked with a trivial query, and how long it may take:
   * a connection whose peer vanished without closing it (a failover, a dropped NAT entry)
   * would otherwise look up while it hears nothing, for as long as TCP takes to notice
   */
  healthCheckMs?: number;
  healthTimeoutMs?: number;
}

export interface NotificationListener {
  /**
   * Calls `handler` with the payload of each notification on `channel`. It is also
   * called with '' whenever LISTEN on the channel is (re)established, because what
   * was sent before (or while the connection was down) was not heard: "look again".
   * Returns the unsubscribe.
   */
  on(channel: string, handler: (payload: string) => void): () => void;
  /** true while the connection is up and LISTENing; false on the embedded database and while reconnecting */
  readonly listening: boolean;
  /**
   * True once every notification committed before `since` (this process's performance.now())
   * has reached its handlers: a query sent on the listening connection after `since` has been
   * answered, and the server sends pending notifications before it answers. One query serves
   * every caller waiting at once. False when not listening, or when no answer comes within
   * CAUGHT_UP_TIMEOUT_MS (and at once after that, until an answer comes): the caller reads the
   * database instead.
   */
  caughtUp(since: number): Promise<boolean>;
  /**
   * The primary's WAL insert position (`pg_current_wal_insert_lsn()`, as text) read by a catch-up
   * query sent after `since`: every commit acknowledged before `since`, by any process, ends at or
   * before it. The same query as `caughtUp`'s (one serves both). Null when not listening, on a
   * standby, or when no answer comes in time: the caller reads the primary instead (replicas.ts).
   */
  walPositionSince(since: number): Promise<string | null>;
  close(): Promise<void>;
}

/** how long caughtUp waits for the listening connection before telling its caller to read the database */
export const CAUGHT_UP_TIMEOUT_MS = 500;

/**
 * The catch-up query: any answer proves the notifications before it have arrived; it also carries
 * the primary's WAL insert position, which read-your-writes on replicas compares with a replica's
 * replay position (replicas.ts). On a standby there is no insert position: null, never an error.
 */
export const CATCH_UP_QUERY = 'SELECT CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_current_wal_insert_lsn()::text END AS lsn';

/** the catch-up query prepared once per listening connection: planned once, not on every catch-up */
const CATCH_UP_STATEMENT = { name: 'bo_catch_up', text: CATCH_UP_QUERY };

/** application_name of the listening connection (to be found in pg_stat_activity) */
export const LISTENER_APPLICATION_NAME = 'bizops-listen';

/** Channel names are identifiers of ours, never user input; anything else is refused. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function assertChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`not a notification channel name: ${JSON.stringify(channel)}`);
}

type Handler = (payload: string) => void;

/** The process's one listening connection on one database, shared by every handle on it. */
class SharedListener {
  private readonly handlers = new Map<string, Set<Handler>>();
  private client: pg.Client | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly healthTimer: NodeJS.Timeout;
  private checking = false;
  private delayMs: number;
  listening = false;
  refs = 0;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly log: NotificationLog | undefined,
    private readonly minMs: number,
    private readonly maxMs: number,
    private readonly health: { everyMs: number; timeoutMs: number },
    private readonly onClosed: () => void,
  ) {
    this.delayMs = minMs;
    this.healthTimer = setInterval(() => this.checkHealth(), health.everyMs);
    this.healthTimer.unref();
    void this.connect();
  }

  /** the statements sent on the listening connection, one after another (pg 9 refuses a query sent while others wait) */
  private queue: { client: pg.Client; last: Promise<unknown> } | null = null;

  private serially(client: pg.Client, statement: string | (() => Promise<unknown>)): Promise<unknown> {
    if (this.queue?.client !== client) this.queue = { client, last: Promise.resolve() };
    const next = this.queue.last.then(
      (): Promise<unknown> => (typeof statement === 'string' ? client.query(statement) : statement()),
    );
    this.queue.last = next.catch(() => {});
    return next;
  }

  /** when the newest answered catch-up query was sent (performance.now()); reset with each connection */
  private answeredSentAt = Number.NEGATIVE_INFINITY;
  /** the primary's WAL insert position that answer carried (null on a standby) */
  private answeredLsn: string | null = null;
  /** the catch-up query on the wire, and when it was sent */
  private sent: { at: number; done: Promise<boolean> } | null = null;
  /** a catch-up query queued and not yet sent: whoever asks now is served by it */
  private next: Promise<boolean> | null = null;

  /** a catch-up query went unanswered past the timeout and none has been answered since */
  private lagging = false;

  caughtUp(since: number): Promise<boolean> {
    const client = this.client;
    if (!client || !this.listening) return Promise.resolve(false);
    if (this.answeredSentAt >= since) return Promise.resolve(true);
    // a connection that went silent costs each request nothing while the health check drops it
    if (this.lagging) return Promise.resolve(false);
    if (this.sent && this.sent.at >= since) return this.sent.done;
    if (this.next) return this.next;
    let answer: (caughtUp: boolean) => void = () => {};
    const done = new Promise<boolean>((resolve) => {
      answer = resolve;
    });
    const timer = setTimeout(() => {
      if (this.next === done) this.next = null;
      if (this.client === client) this.lagging = true;
      answer(false);
    }, CAUGHT_UP_TIMEOUT_MS);
    timer.unref();
    void done.then(() => clearTimeout(timer));
    this.next = done;
    this.serially(client, () => {
      if (this.next === done) this.next = null;
      const at = performance.now();
      this.sent = { at, done };
      return client.query<{ lsn: string | null }>(CATCH_UP_STATEMENT).then((result) => {
        // the notifications sent before this answer reached their handlers as they were read
        const current = this.client === client;
        if (current && at > this.answeredSentAt) {
          this.answeredSentAt = at;
          this.answeredLsn = result.rows[0]?.lsn ?? null;
        }
        if (current) this.lagging = false;
        answer(current);
      });
    }).catch(() => answer(false));
    return done;
  }

  walPositionSince(since: number): Promise<string | null> {
    // answers only grow: a newer one than the query sent after `since` is as good
    if (this.listening && this.answeredSentAt >= since) return Promise.resolve(this.answeredLsn);
    return this.caughtUp(since).then((ok) => (ok ? this.answeredLsn : null));
  }

  /** a connection that does not answer in time is dropped; its end reconnects */
  private checkHealth(): void {
    const client = this.client;
    if (!client || this.checking) return;
    this.checking = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.health.timeoutMs);
    });
    void Promise.race([
      this.serially(client, 'SELECT 1').then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
      late,
    ]).then((result) => {
      clearTimeout(timer);
      this.checking = false;
      if (result !== 'late' || this.client !== client) return;
      this.log?.warn({ timeoutMs: this.health.timeoutMs }, 'notification listener connection does not answer; reconnecting');
      // end() would wait for a peer that is gone: destroy the socket, which ends the client
      destroySocket(client);
    });
  }

  subscribe(channel: string, handler: Handler): () => void {
    let set = this.handlers.get(channel);
    const isNew = !set;
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    const client = this.client;
    if (client && isNew) {
      this.serially(client, `LISTEN ${pg.escapeIdentifier(channel)}`).then(
        () => this.tell(channel, ''),
        // the connection is going: its end reconnects and LISTENs again
        () => {},
      );
    } else if (client && this.listening) {
      // the channel was already heard; this handler missed what came before
      queueMicrotask(() => handler(''));
    }
    return () => {
      const current = this.handlers.get(channel);
      if (!current?.delete(handler) || current.size > 0) return;
      this.handlers.delete(channel);
      if (this.client) this.serially(this.client, `UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
    };
  }

  private tell(channel: string, payload: string): void {
    for (const h of this.handlers.get(channel) ?? []) {
      try {
        h(payload);
      } catch (err) {
        this.log?.warn({ err, channel }, 'a notification handler failed');
      }
    }
  }

  private async connect(): Promise<void> {
    this.retryTimer = null;
    if (this.closed) return;
    const client = new pg.Client(this.config);
    // an error on an idle connection would otherwise be thrown at the process; 'end' follows it
    client.on('error', (err) => this.log?.warn({ err }, 'notification listener connection error'));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      this.log?.warn({ err, retryInMs: this.delayMs }, 'notification listener could not connect; callers poll meanwhile');
      client.end().catch(() => {});
      this.retry();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    client.on('notification', (m) => this.tell(m.channel, m.payload ?? ''));
    client.once('end', () => {
      if (this.client !== client) return;
      this.client = null;
      this.listening = false;
      if (this.closed) return;
      this.log?.warn({}, 'notification listener lost its connection; callers poll until it is back');
      this.retry();
    });
    this.client = client;
    this.answeredSentAt = Number.NEGATIVE_INFINITY;
    this.answeredLsn = null;
    this.lagging = false;
    this.sent = null;
    this.next = null;
    this.listening = true;
    this.delayMs = this.minMs;
    this.log?.info({ channels: [...this.handlers.keys()] }, 'notification listener listening');
    for (const channel of this.handlers.keys()) this.tell(channel, '');
  }

  private retry(): void {
    if (this.closed) return;
    // equal jitter: several processes losing the same server do not come back in step
    const wait = this.delayMs / 2 + (Math.random() * this.delayMs) / 2;
    this.delayMs = Math.min(this.maxMs, this.delayMs * 2);
    this.retryTimer = setTimeout(() => void this.connect(), wait);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    this.onClosed();
    clearInterval(this.healthTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    this.handlers.clear();
    await client?.end().catch(() => {});
  }
}

const shared = new Map<string, SharedListener>();

/** A handle on nothing: the embedded database, where callers poll. */
function idleListener(): NotificationListener {
  return {
    on(channel) {
      assertChannel(channel);
      return () => {};
    },
    listening: false,
    caughtUp: async () => false,
    walPositionSince: async () => null,
    async close() {},
  };
}

/**
 * A handle on the process's listening connection to this database (made by the first
 * handle, closed with the last). On the embedded database nothing is started: a
 * connection held for LISTEN would take the one connection everyone shares, so
 * `listening` stays false and callers poll.
 */
export function createNotificationListener(opts: NotificationListenerOptions): NotificationListener {
  const pool = opts.pool ?? {};
  const connectionString = opts.connectionString ?? pool.connectionString;
  if (!connectionString) throw new Error('createNotificationListener needs a connection string');
  if (opts.embedded ?? isEmbeddedPoolConfig(pool)) return idleListener();

  let listener = shared.get(connectionString);
  if (!listener) {
    // a pool's own settings have no meaning for a single client
    const { Client: _c, max: _m, min: _n, idleTimeoutMillis: _i, log: _l, onConnect: _o, ...client } = pool;
    const created: SharedListener = new SharedListener(
      {
        // a connection attempt to a server that does not answer gives up (and is tried again)
        connectionTimeoutMillis: 10_000,
        ...client,
        connectionString,
        application_name: LISTENER_APPLICATION_NAME,
        keepAlive: true,
      },
      opts.log,
      opts.reconnectMinMs ?? 100,
      opts.reconnectMaxMs ?? 10_000,
      { everyMs: opts.healthCheckMs ?? 30_000, timeoutMs: opts.healthTimeoutMs ?? 10_000 },
      () => {
        if (shared.get(connectionString) === created) shared.delete(connectionString);
      },
    );
    listener = created;
    shared.set(connectionString, listener);
  }
  const owner = listener;
  owner.refs += 1;
  const mine = new Set<() => void>();
  let closed = false;
  return {
    on(channel, handler) {
      assertChannel(channel);
      if (closed) throw new Error('the notification listener is closed');
      const off = owner.subscribe(channel, handler);
      const unsubscribe = () => {
        if (mine.delete(unsubscribe)) off();
      };
      mine.add(unsubscribe);
      return unsubscribe;
    },
    get listening() {
      return !closed && owner.listening;
    },
    caughtUp(since) {
      return closed ? Promise.resolve(false) : owner.caughtUp(since);
    },
    walPositionSince(since) {
      return closed ? Promise.resolve(null) : owner.walPositionSince(since);
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const off of [...mine]) off();
      owner.refs -= 1;
      if (owner.refs === 0) await owner.close();
    },
  };
}
