import pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

/** the most requests a process serves from one counted block */
const MAX_BLOCK = 50;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
  /** seconds until the window ends and the budget is whole again */
  resetSeconds: number;
}

export interface RateLimit {
  /**
   * counts one request of a token (v2, v3 and /trpc share the budget); null when the limit is off.
   * Answered at once (no promise) when the process's counted block has a point left, as nearly
   * every request's is: an await per request costs a read by id more than the count itself.
   */
  consume(key: string): RateLimitDecision | null | Promise<RateLimitDecision | null>;
  /**
   * a refusal when the client address has failed to authenticate too often (counted by authFailed);
   * from memory, no database call. `address` is asked only while some address is refused.
   */
  authAllowed(address: () => string): RateLimitDecision | null;
  /** counts one failed authentication of a client address */
  authFailed(address: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Requests per token per minute and failed authentications per client address per
 * minute, counted in PostgreSQL so that every API process shares the counters. The
 * table is UNLOGGED (counters need no crash safety) and lives in its own schema,
 * outside the Prisma schema. The two budgets are apart: guessing secrets from one
 * address never spends a token's budget, and a busy token never locks an address out.
 */
export async function createRateLimit(
  poolConfig: pg.PoolConfig,
  opts: { perMinute: number; authFailuresPerMinute: number; poolSize: number },
): Promise<RateLimit> {
  // the database's own pool settings (on the embedded one: unnamed statements, see @bo/db pool.ts)
  const pool = new pg.Pool({ ...poolConfig, max: opts.poolSize, application_name: 'bizops-rate-limit' });
  // an idle connection the server closes is replaced by the pool; unheard, the event would crash the process
  pool.on('error', () => {});
  // IF NOT EXISTS is not safe against itself: processes starting at once take turns on a lock
  await pool.query(`BEGIN;
    SELECT pg_advisory_xact_lock(hashtext('bizops.rate_limit'));
    CREATE SCHEMA IF NOT EXISTS rate_limit;
    CREATE UNLOGGED TABLE IF NOT EXISTS rate_limit.counter (
      key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint);
    COMMIT`);
  const limiter = (points: number, keyPrefix: string) =>
    points > 0
      ? new RateLimiterPostgres({
          storeClient: pool,
          storeType: 'pool',
          schemaName: 'rate_limit',
          tableName: 'counter',
          tableCreated: true,
          keyPrefix,
          points,
          duration: 60,
          // once a key is over its limit, refuse it from memory until the window ends
          inMemoryBlockOnConsumed: points,
          clearExpiredByTimeout: true,
        })
      : null;
  const requests = limiter(opts.perMinute, 'rlflx');
  const failures = limiter(opts.authFailuresPerMinute, 'authfail');
  const blocked = new Map<string, number>();
  const refused = (limit: number, err: RateLimiterRes): RateLimitDecision => ({
    allowed: false,
    limit,
    remaining: 0,
    retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
    resetSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
  });
  // Requests are counted in blocks: a process takes `blockSize` points of a token's budget in
  // one statement and serves that many requests from memory, so that counting costs one
  // statement per block instead of one per request. A block is taken only while the budget
  // last seen has room for many (near the end of a budget every request is counted alone, so
  // no one gets past the limit); a block ends with its window, and its unused points are
  // lost, at most one block per process and window.
  // One statement per key is in flight at a time in a process: requests that arrive while a
  // block is being taken wait for it and share it, instead of each taking a block of its own
  // and overwriting the others' (which spent the budget on points nobody served).
  const blockSize = Math.max(1, Math.min(MAX_BLOCK, Math.floor(opts.perMinute / 100)));
  const blocks = new Map<string, { left: number; remaining: number; until: number }>();
  const taking = new Map<string, Promise<RateLimiterRes | null>>();
  const take = (key: string): Promise<RateLimiterRes | null> => {
    const block = blocks.get(key);
    const now = Date.now();
    const roomy = block !== undefined && now < block.until && block.remaining >= blockSize * 4;
    const points = roomy ? blockSize : 1;
    const pending = (requests as RateLimiterPostgres).consume(key, points).then(
      (res) => {
        if (blocks.size > 100_000) blocks.clear();
        blocks.set(key, { left: points, remaining: res.remainingPoints, until: now + res.msBeforeNext });
        return null;
      },
      (err: unknown) => {
        if (err instanceof RateLimiterRes) {
          blocks.delete(key);
          return err;
        }
        throw err;
      },
    );
    const settled = pending.finally(() => taking.delete(key));
    taking.set(key, settled);
    return settled;
  };
  /** one point of the key's counted block, if it has one left */
  const fromBlock = (key: string): RateLimitDecision | undefined => {
    const block = blocks.get(key);
    if (!block || block.left <= 0) return undefined;
    const now = Date.now();
    if (now >= block.until) return undefined;
    block.left -= 1;
    return {
      allowed: true,
      limit: opts.perMinute,
      remaining: block.remaining + block.left,
      retryAfterSeconds: 0,
      resetSeconds: Math.max(0, Math.ceil((block.until - now) / 1000)),
    };
  };
  const counted = async (key: string): Promise<RateLimitDecision> => {
    for (;;) {
      const allowed = fromBlock(key);
      if (allowed) return allowed;
      const inFlight = taking.get(key);
      const refusal = await (inFlight ?? take(key));
      // a refusal of the statement this request started is its answer; one it waited for
      // is checked again (another block may have come in meanwhile)
      if (refusal && !inFlight) return refused(opts.perMinute, refusal);
      if (refusal && !blocks.get(key)?.left) return refused(opts.perMinute, refusal);
    }
  };
  return {
    consume(key) {
      if (!requests) return null;
      return fromBlock(key) ?? counted(key);
    },
    authAllowed(address) {
      if (!failures || blocked.size === 0) return null;
      const at = address();
      const until = blocked.get(at);
      if (until === undefined) return null;
      const left = until - Date.now();
      if (left <= 0) {
        blocked.delete(at);
        return null;
      }
      return {
        allowed: false,
        limit: opts.authFailuresPerMinute,
        remaining: 0,
        retryAfterSeconds: Math.ceil(left / 1000),
        resetSeconds: Math.ceil(left / 1000),
      };
    },
    async authFailed(address) {
      if (!failures) return;
      // the failure that spends the last point blocks the address at once: N allowed means N
      // attempts, the next one refused (blocking only when a consume fails let N + 1 through)
      let msBeforeNext: number;
      try {
        const res = await failures.consume(address);
        if (res.remainingPoints > 0) return;
        msBeforeNext = res.msBeforeNext;
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        msBeforeNext = err.msBeforeNext;
      }
      // over the burst: this process refuses the address from memory until the window ends
      // (the count itself is shared, so every process blocks it at its next failure)
      if (blocked.size > 100_000) blocked.clear();
      blocked.set(address, Date.now() + msBeforeNext);
    },
    close: () => pool.end(),
  };
}
