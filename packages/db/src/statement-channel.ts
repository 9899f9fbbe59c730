import type pg from 'pg';
import type { ReadOptions } from './client.js';
import { type CorkableStream, corkableStream } from './pg-internals.js';
import { type GuardedPool, PREPARED, sqlError } from './pool.js';

/** The connection a transaction holds, to send its raw statements on directly. */
export interface TransactionConnection {
  client: pg.PoolClient;
  pool: GuardedPool;
  /** false once the transaction's time is up: statements are refused */
  isOpen?: () => boolean;
  /**
   * The connection is in pg's pipeline mode for this transaction (ours alone, never Prisma's):
   * a queued statement is written at once, behind the ones before it, without waiting for them.
   */
  pipelined?: boolean;
}

const timedOut = () => sqlError('57014', 'canceling statement due to statement timeout');

/**
 * Statements of one transaction on its connection. `send` writes one and waits for its answer;
 * `queue` (pipelined connections) writes one nobody needs an answer of and goes on: PostgreSQL runs
 * them in order, so a create's row, address, custom fields and read-back cost one round trip
 * instead of one each. Queued statements are held in the socket (corked) until the next `send`, or
 * the next turn of the event loop, and leave in one write. A queued statement's failure fails
 * the next `send` (the transaction is aborted by then: what follows would only say so).
 */
export class StatementChannel {
  private failure: unknown;
  private corked = false;
  private readonly stream: CorkableStream | null;

  constructor(private readonly connection: TransactionConnection) {
    this.stream = corkableStream(connection.client);
  }

  get pipelined(): boolean {
    return this.connection.pipelined === true;
  }

  private config(sql: string, values: unknown[] | undefined, options?: ReadOptions): pg.QueryConfig {
    // a stable plan is prepared on the connection as outside transactions (a write's read-back of
    // its row with every relation: planning it was most of a create's PostgreSQL time)
    return options?.stablePlan ? { name: PREPARED, text: sql, values } : { text: sql, values };
  }

  private refuse(): Error | null {
    const { isOpen } = this.connection;
    return isOpen && !isOpen() ? timedOut() : null;
  }

  async send(sql: string, values?: unknown[], options?: ReadOptions): Promise<pg.QueryResult> {
    const refused = this.refuse();
    if (refused) throw refused;
    this.connection.pool.observe?.(sql);
    const answer = this.connection.client.query(this.config(sql, values, options));
    this.flush();
    let result: pg.QueryResult;
    try {
      result = await answer;
    } catch (err) {
      throw this.failure ?? err;
    }
    if (this.failure !== undefined) throw this.failure;
    return result;
  }

  /** Writes a statement whose answer nobody needs; on a connection that is not pipelined, as `send`. */
  async queue(sql: string, values?: unknown[], options?: ReadOptions): Promise<void> {
    if (!this.pipelined) {
      await this.send(sql, values, options);
      return;
    }
    const refused = this.refuse();
    if (refused) throw refused;
    if (this.failure !== undefined) throw this.failure;
    this.connection.pool.observe?.(sql);
    if (this.stream && !this.corked) {
      this.corked = true;
      this.stream.cork();
      // never held past this turn of the event loop, whatever the use case awaits next
      setImmediate(() => this.flush());
    }
    this.connection.client.query(this.config(sql, values, options), (err: Error | null) => {
      if (err && this.failure === undefined) this.failure = err;
    });
  }

  /** The failure of a queued statement, once its answer has come. */
  get queuedFailure(): unknown {
    return this.failure;
  }

  flush(): void {
    if (!this.corked || !this.stream) return;
    this.corked = false;
    this.stream.uncork();
  }
}
