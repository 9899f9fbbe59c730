import pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

export interface RateLimit {
  consume(key: string): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

/**
 * Requests per token per minute, counted in PostgreSQL so that every API
 * process shares the counters. The table is UNLOGGED (counters need no crash
 * safety) and lives in its own schema, outside the Prisma schema.
 */
export async function createRateLimit(
  connectionString: string,
  opts: { perMinute: number; poolSize: number },
): Promise<RateLimit> {
  const pool = new pg.Pool({ connectionString, max: opts.poolSize, application_name: 'bizops-rate-limit' });
  // an idle connection the server closes is replaced by the pool; unheard, the event would crash the process
  pool.on('error', () => {});
  // IF NOT EXISTS is not safe against itself: processes starting at once take turns on a lock
  await pool.query(`BEGIN;
    SELECT pg_advisory_xact_lock(hashtext('bizops.rate_limit'));
    CREATE SCHEMA IF NOT EXISTS rate_limit;
    CREATE UNLOGGED TABLE IF NOT EXISTS rate_limit.counter (
      key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint);
    COMMIT`);
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    schemaName: 'rate_limit',
    tableName: 'counter',
    tableCreated: true,
    points: opts.perMinute,
    duration: 60,
    // once a key is over its limit, refuse it from memory until the window ends
    inMemoryBlockOnConsumed: opts.perMinute,
    clearExpiredByTimeout: true,
  });
  return {
    async consume(key) {
      try {
        const res = await limiter.consume(key);
        return { allowed: true, limit: opts.perMinute, remaining: res.remainingPoints, retryAfterSeconds: 0 };
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          return { allowed: false, limit: opts.perMinute, remaining: 0, retryAfterSeconds: Math.ceil(err.msBeforeNext / 1000) };
        }
        throw err;
      }
    },
    close: () => pool.end(),
  };
}
