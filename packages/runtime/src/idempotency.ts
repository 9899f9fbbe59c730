import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import pg from 'pg';
import { isEmbeddedPoolConfig, outsideRequestScope, rawRead } from '@bo/db';
import { ConflictError, ValidationError } from '@bo/domain';
import { admissionOf } from './guard.js';

/** how long an answer is kept for its key (as the best-known payments API does: 24 hours) */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** how long a request that finds its key in flight waits for the first one's answer before 409 */
export const IDEMPOTENCY_WAIT_MS = 10_000;
/** how long the first request holds its key: past it, a process that died no longer blocks a retry */
export const IDEMPOTENCY_LEASE_MS = 60_000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** answer headers replayed with the stored answer (the rest belong to the moment: rate limit, request id, date) */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'];
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Where the keys are claimed and answers kept: pools of their own, as the rate limit has. A
 * key's claim is the door's bookkeeping, not the environment's work, and it must not queue for
 * the environment's fair share behind the writes it guards.
 *
 * The claim is committed without waiting for its WAL flush (`synchronous_commit = off`): that
 * flush, on the critical path of every keyed write, cost it a third of its throughput
 * (docs/idempotency.md). It is safe. The write that follows commits synchronously, and its flush
 * covers every WAL record before it, the claim's included; a claim lost in a crash is one whose
 * write never committed, and a retry then runs as the first, as it should. The answer is stored
 * with a synchronous commit: once it is kept, a crash cannot make the key run again.
 */
export interface IdempotencyStore {
  /** claims and reads of keys (committed without waiting for the flush) */
  claim<T>(name: string, text: string, params: readonly unknown[]): Promise<T[]>;
  /** answers kept and keys released (committed durably) */
  keep<T>(name: string, text: string, params: readonly unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export function createIdempotencyStore(poolConfig: pg.PoolConfig, opts: { poolSize: number }): IdempotencyStore {
  const open = (name: string, options?: string) => {
    const pool = new pg.Pool({ ...poolConfig, max: opts.poolSize, application_name: name, ...(options ? { options } : {}) });
    // an idle connection the server closes is replaced by the pool; unheard, the event would crash the process
    pool.on('error', () => {});
    // named: each connection parses and plans a statement once (the embedded database's client drops the name)
    const query = async <T>(statement: string, text: string, params: readonly unknown[]) =>
      (await pool.query({ name: statement, text, values: params as unknown[] })).rows as T[];
    return { pool, query };
  };
  // the embedded database takes no start-up options and has one connection: one pool, every commit durable
  if (isEmbeddedPoolConfig(poolConfig)) {
    const only = open('bizops-idempotency');
    return { claim: only.query, keep: only.query, close: () => only.pool.end() };
  }
  const claims = open('bizops-idempotency-claims', '-c synchronous_commit=off');
  const answers = open('bizops-idempotency');
  return {
    claim: claims.query,
    keep: answers.query,
    close: async () => {
      await Promise.all([claims.pool.end(), answers.pool.end()]);
    },
  };
}

export interface IdempotencyOptions {
  /** the store of the keys; none: the request's own database pool (tests that build an app alone) */
  store?: IdempotencyStore | null;
  ttlMs?: number;
  waitMs?: number;
  leaseMs?: number;
  /** logs a failure to store an answer (the write itself has happened; a retry then runs again) */
  log: { error(obj: object, msg: string): void };
}

interface KeyRow {
  request_hash: string;
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
  lease_live: boolean;
}

/**
 * `Idempotency-Key` on every write of a door (issue 29, section 1), one implementation for v2
 * and v3, mounted after the guard (the token is known) and after the body is parsed (its hash is
 * part of the request). The first request with a key claims it in PostgreSQL (INSERT … ON
 * CONFLICT DO NOTHING: one claim wins across every process), runs, and its answer (status, body,
 * content type) is stored with the key for 24 hours; a repeat of the same request gets that answer
 * again, marked `Idempotent-Replayed: true`, and changes nothing. The same key with another
 * request (method, path, query or body) is refused naming the header. A repeat that comes while
 * the first still runs waits for its answer, or gets 409 after IDEMPOTENCY_WAIT_MS; a key whose
 * process died is taken over once its lease ends. 5xx answers are not stored (the retry runs
 * again); 4xx answers are, as the payments API that named the header does.
 */
export function idempotency(opts: IdempotencyOptions): RequestHandler {
  const ttl = opts.ttlMs ?? IDEMPOTENCY_KEY_TTL_MS;
  const waitMs = opts.waitMs ?? IDEMPOTENCY_WAIT_MS;
  const leaseMs = opts.leaseMs ?? IDEMPOTENCY_LEASE_MS;

  return (req: Request, res: Response, next: NextFunction) => {
    const key = req.get('idempotency-key');
    if (key === undefined || !WRITES.has(req.method)) return next();
    const admission = admissionOf(res);
    const tokenId = admission?.principal?.tokenId;
    if (!tokenId) return next();
    // a body that did not arrive whole (the client dropped the connection while sending it) was
    // never read: such a request claims nothing, and its retry runs as the first
    const sentBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (sentBody && req.body === undefined) return next();
    if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      return next(
        new ValidationError([
          {
            path: 'Idempotency-Key',
            message: `the Idempotency-Key header is 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
            code: 'invalid_header',
          },
        ]),
      );
    }
    const store = opts.store;
    const raw = store ? null : rawRead(admission.context.prisma);
    const onRequestPool = <T>(_name: string, text: string, params: readonly unknown[]) =>
      (raw as ReturnType<typeof rawRead>)<T>(text, params);
    const sql = store ? store.claim.bind(store) : onRequestPool;
    const keep = store ? store.keep.bind(store) : onRequestPool;
    const environmentId = admission.principal?.environmentId as string;
    const hash = createHash('sha256')
      .update(`${req.method} ${req.originalUrl}\n`)
      .update(req.body === undefined ? '' : JSON.stringify(req.body))
      .digest('hex');
    const id = [environmentId, tokenId, key] as const;

    const claim = async (): Promise<boolean> => {
      // a new key, or one whose answer expired, or one whose first request's process died
      const rows = await sql<{ claimed: boolean }>(
        'bo_idempotency_claim',
        `INSERT INTO idempotency_key (environment_id, token_id, key, request_hash, lease_until, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::float8 / 1000), now() + make_interval(secs => $6::float8 / 1000))
         ON CONFLICT (environment_id, token_id, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, status = NULL, headers = NULL, body = NULL,
               lease_until = EXCLUDED.lease_until, expires_at = EXCLUDED.expires_at, created_at = now()
           WHERE idempotency_key.expires_at < now()
              OR (idempotency_key.status IS NULL AND idempotency_key.lease_until < now()
                  AND idempotency_key.request_hash = EXCLUDED.request_hash)
         RETURNING true AS claimed`,
        [...id, hash, leaseMs, ttl],
      );
      return rows.length > 0;
    };

    const read = async () =>
      (
        await sql<KeyRow>(
          'bo_idempotency_read',
          `SELECT request_hash, status, headers, body, lease_until >= now() AS lease_live
             FROM idempotency_key WHERE environment_id = $1 AND token_id = $2 AND key = $3 AND expires_at >= now()`,
          id,
        )
      )[0];

    const replay = (row: KeyRow) => {
      for (const [name, value] of Object.entries(row.headers ?? {})) res.setHeader(name, value);
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(row.status as number).end(row.body ?? undefined);
    };

    const run = () => {
      // the answer, whatever writes it (res.json, res.send, res.end), stored as it is sent
      const end = res.end.bind(res) as (...args: unknown[]) => Response;
      res.end = ((...args: unknown[]) => {
        const [chunk, encoding] = args;
        const body =
          chunk === undefined || typeof chunk === 'function'
            ? Buffer.alloc(0)
            : Buffer.isBuffer(chunk)
              ? chunk
              : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
        const status = res.statusCode;
        const headers = Object.fromEntries(
          REPLAYED_HEADERS.flatMap((h) => {
            const v = res.getHeader(h);
            return v === undefined ? [] : [[h, String(v)]];
          }),
        );
        // outside the request's scope: a client that went away cancels the request's statements,
        // and its answer (or the release of its key) must still be written
        const stored = outsideRequestScope(() =>
          status >= 500
            ? keep(
                'bo_idempotency_release',
                'DELETE FROM idempotency_key WHERE environment_id = $1 AND token_id = $2 AND key = $3',
                id,
              )
            : keep(
                'bo_idempotency_answer',
                `UPDATE idempotency_key SET status = $4, headers = $5::jsonb, body = $6, lease_until = now()
                  WHERE environment_id = $1 AND token_id = $2 AND key = $3`,
                [...id, status, JSON.stringify(headers), body],
              ),
        );
        stored.catch((err: unknown) => opts.log.error({ err }, 'storing an idempotent answer'));
        return end(...args);
      }) as typeof res.end;
      next();
    };

    (async () => {
      const deadline = Date.now() + waitMs;
      for (;;) {
        if (await claim()) return run();
        const row = await read();
        if (!row) continue; // expired or released between the two statements: claim again
        if (row.request_hash !== hash) {
          throw new ValidationError([
            {
              path: 'Idempotency-Key',
              message: 'this Idempotency-Key was used with another request (method, path or body); use a new key',
              code: 'idempotency_key_reused',
            },
          ]);
        }
        if (row.status !== null) return replay(row);
        if (Date.now() > deadline) {
          throw new ConflictError('a request with this Idempotency-Key is still in progress; retry later');
        }
        await new Promise((r) => setTimeout(r, row.lease_live ? 25 : 0));
      }
    })().catch(next);
  };
}
