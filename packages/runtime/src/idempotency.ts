import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import pg from 'pg';
import { isEmbeddedPoolConfig, outsideRequestScope, rawRead, setRequestWriteGate, type WriteGate } from '@bo/db';
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
 * Where keys are claimed apart from a write, read, and answers kept: pools of their own, as the
 * rate limit has. The key's bookkeeping must not queue for the environment's fair share behind
 * the writes it guards. (The usual claim is not made here at all: a write transaction of our own
 * carries it, see `idempotency` below.)
 *
 * A claim made apart is committed without waiting for its WAL flush (`synchronous_commit = off`):
 * the write that follows commits synchronously, and its flush covers every WAL record before it,
 * the claim's included; a claim lost in a crash is one whose write never committed, and a retry
 * then runs as the first, as it should. The answer is stored with a synchronous commit: once it
 * is kept, a crash cannot make the key run again.
 */
export interface IdempotencyStore {
  /** claims apart and reads of keys, answers of claims committed with their write (committed without waiting for the flush) */
  claim<T>(name: string, text: string, params: readonly unknown[]): Promise<T[]>;
  /** answers of claims made apart, and keys released (committed durably) */
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

/** Renders an error in the door's terms (v2 envelope, v3 problem details), after the request has run. */
export type IdempotencyRender = (err: unknown, req: Request, res: Response) => void;

/** The `Idempotency-Key` middleware of a door, given how that door renders an error. */
export type IdempotencyMiddleware = (render: IdempotencyRender) => RequestHandler;

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

/** SQLSTATE of `idempotency_key_claim` when the key is held (by a request running, or by an answer) */
const KEY_HELD = 'BOIK1';

/**
 * Where a request stands with its key. `pending`: not claimed yet (nothing written). `carrying`:
 * a write transaction carries the claim. `claiming`: claimed apart, in flight. `claimed`: the key
 * is this request's. `lost`: another request holds the key (or its answer): this request must
 * not write, and its answer will be the other's.
 */
type KeyState = 'pending' | 'carrying' | 'claiming' | 'claimed' | 'lost';

const heldByAnother = () => new ConflictError('a request with this Idempotency-Key has run or is running');

/**
 * The key's claim as the request's write gate (@bo/db WriteGate): made by the request's first
 * write, in its own transaction where it has one, apart otherwise. A request that never writes
 * never claims; its answer is kept with the key in one statement at its end.
 */
class KeyGate implements WriteGate {
  state: KeyState = 'pending';
  /** claimed by a write transaction that committed: the key's row says the write has happened */
  withWrite = false;
  /** no longer guarding (the answer is being sent): later writes go on */
  closed = false;
  private changed: { promise: Promise<void>; resolve: () => void } | null = null;

  constructor(
    private readonly claimStatement: { text: string; values: unknown[] },
    private readonly claimApart: () => Promise<boolean>,
  ) {}

  get passed(): boolean {
    return this.closed || this.state === 'claimed';
  }

  private set(state: KeyState): void {
    this.state = state;
    const changed = this.changed;
    this.changed = null;
    changed?.resolve();
  }

  /** resolves at the next change of state */
  private nextChange(): Promise<void> {
    if (!this.changed) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.changed = { promise, resolve };
    }
    return this.changed.promise;
  }

  /** the state once no claim is in flight */
  async settled(): Promise<KeyState> {
    while (this.state === 'carrying' || this.state === 'claiming') await this.nextChange();
    return this.state;
  }

  carry(): { text: string; values: unknown[] } | null {
    if (this.closed || this.state !== 'pending') return null;
    this.set('carrying');
    return this.claimStatement;
  }

  carried(committed: boolean, failure: unknown): unknown {
    if (this.state !== 'carrying') return undefined;
    if (committed) {
      this.withWrite = true;
      this.set('claimed');
      return undefined;
    }
    // rolled back for another reason: nothing was claimed, the next write claims
    if ((failure as { code?: unknown } | null)?.code !== KEY_HELD) {
      this.set('pending');
      return undefined;
    }
    this.set('lost');
    return heldByAnother();
  }

  async pass(): Promise<void> {
    for (;;) {
      if (this.passed) return;
      if (this.state === 'lost') throw heldByAnother();
      if (this.state !== 'pending') {
        await this.nextChange();
        continue;
      }
      this.set('claiming');
      let claimed: boolean;
      try {
        claimed = await this.claimApart();
      } catch (err) {
        this.set('pending');
        throw err;
      }
      this.set(claimed ? 'claimed' : 'lost');
    }
  }
}

interface Answer {
  id: readonly [string, string, string];
  status: number;
  headers: string;
  body: Buffer;
}

/**
 * Answers of claims committed with their write, kept in batches: every answer that came while
 * the previous batch was being written goes in the next one, in one UPDATE. A statement and a
 * commit of its own per keyed write was most of what a key cost once its claim rode in the
 * write (docs/idempotency.md); nobody waits for these answers but a repeat of the same key,
 * which waits for its answer anyway.
 */
function answerBatches(
  run: (name: string, text: string, params: readonly unknown[]) => Promise<unknown>,
): (answer: Answer) => Promise<void> {
  let next: { answers: Answer[]; done: Promise<void> } | null = null;
  let writing: Promise<unknown> = Promise.resolve();
  return (answer) => {
    if (!next) {
      const batch: { answers: Answer[]; done: Promise<void> } = { answers: [], done: Promise.resolve() };
      // written once the batch before it is: the answers that come meanwhile join it
      batch.done = writing.then(() => {
        if (next === batch) next = null;
        const a = batch.answers;
        return run(
          'bo_idempotency_answers',
          `UPDATE idempotency_key k
              SET status = a.status, headers = a.headers, body = a.body, lease_until = now()
             FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::jsonb[], $6::bytea[])
                  AS a(environment_id, token_id, key, status, headers, body)
            WHERE k.environment_id = a.environment_id AND k.token_id = a.token_id AND k.key = a.key`,
          [
            a.map((x) => x.id[0]),
            a.map((x) => x.id[1]),
            a.map((x) => x.id[2]),
            a.map((x) => x.status),
            a.map((x) => x.headers),
            a.map((x) => x.body),
          ],
        ).then(() => undefined);
      });
      writing = batch.done.catch(() => undefined);
      next = batch;
    }
    next.answers.push(answer);
    return next.done;
  };
}

/**
 * `Idempotency-Key` on every write of a door (issue 29, section 1), one implementation for v2
 * and v3, mounted after the guard (the token is known) and after the body is parsed (its hash is
 * part of the request). The first request with a key claims it in PostgreSQL, runs, and its
 * answer (status, body, content type) is stored with the key for 24 hours; a repeat of the same
 * request gets that answer again, marked `Idempotent-Replayed: true`, and changes nothing. The
 * same key with another request (method, path, query or body) is refused naming the header. A
 * repeat that comes while the first still runs waits for its answer, or gets 409 after
 * IDEMPOTENCY_WAIT_MS; a key whose process died is taken over once its lease ends. 5xx answers
 * are not stored (the retry runs again); 4xx answers are, as the payments API that named the
 * header does.
 *
 * The claim costs no round trip of its own: it is the first statement of the request's first
 * write transaction, pipelined with the write (`idempotency_key_claim`, which fails the
 * transaction when the key is held; a concurrent request's uncommitted claim makes it wait for
 * that commit). A request that writes some other way claims apart before its first write (the
 * guarded pool asks, see WriteGate in @bo/db). Either way nothing is written by a request that
 * does not hold the key, and the answer it sends is decided at its end: its own, kept with the
 * key, or the holder's (replayed, or the refusal of a reused key, or 409), in the door's terms.
 */
export function idempotency(opts: IdempotencyOptions): IdempotencyMiddleware {
  const ttl = opts.ttlMs ?? IDEMPOTENCY_KEY_TTL_MS;
  const waitMs = opts.waitMs ?? IDEMPOTENCY_WAIT_MS;
  const leaseMs = opts.leaseMs ?? IDEMPOTENCY_LEASE_MS;
  const store = opts.store;
  // one batcher per store (the process's); without one, each answer on the request's pool
  const batchedAnswer = store ? answerBatches(store.claim.bind(store)) : null;

  return (render) => (req: Request, res: Response, next: NextFunction) => {
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
    const raw = store ? null : rawRead(admission.context.prisma);
    // outside the request's scope: the request pool would ask the request's write gate again
    const onRequestPool = <T>(_name: string, text: string, params: readonly unknown[]) =>
      outsideRequestScope(() => (raw as ReturnType<typeof rawRead>)<T>(text, params));
    const sql = store ? store.claim.bind(store) : onRequestPool;
    const keep = store ? store.keep.bind(store) : onRequestPool;
    const environmentId = admission.principal?.environmentId as string;
    const hash = createHash('sha256')
      .update(`${req.method} ${req.originalUrl}\n`)
      .update(req.body === undefined ? '' : JSON.stringify(req.body))
      .digest('hex');
    const id = [environmentId, tokenId, key] as const;

    // a new key, or one whose answer expired, or one whose first request's process died
    const takeable = `ON CONFLICT (environment_id, token_id, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, status = EXCLUDED.status, headers = EXCLUDED.headers,
               body = EXCLUDED.body, lease_until = EXCLUDED.lease_until, expires_at = EXCLUDED.expires_at,
               created_at = now()
           WHERE idempotency_key.expires_at < now()
              OR (idempotency_key.status IS NULL AND idempotency_key.lease_until < now()
                  AND idempotency_key.request_hash = EXCLUDED.request_hash)
         RETURNING true AS claimed`;

    const claimApart = async (): Promise<boolean> =>
      (
        await sql<{ claimed: boolean }>(
          'bo_idempotency_claim',
          `INSERT INTO idempotency_key (environment_id, token_id, key, request_hash, lease_until, expires_at)
           VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::float8 / 1000), now() + make_interval(secs => $6::float8 / 1000))
           ${takeable}`,
          [...id, hash, leaseMs, ttl],
        )
      ).length > 0;

    const read = async () =>
      (
        await sql<KeyRow>(
          'bo_idempotency_read',
          `SELECT request_hash, status, headers, body, lease_until >= now() AS lease_live
             FROM idempotency_key WHERE environment_id = $1 AND token_id = $2 AND key = $3 AND expires_at >= now()`,
          id,
        )
      )[0];

    const gate = new KeyGate(
      { text: 'SELECT idempotency_key_claim($1, $2, $3, $4, $5)', values: [...id, hash, ttl] },
      claimApart,
    );
    setRequestWriteGate(gate);

    // headers set before the request ran (the guard's): what is left when its own answer gives way to another
    const ownHeaders = new Set(res.getHeaderNames());
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let ended = false;

    /** the holder's answer instead of this request's: replayed, or the refusal, in the door's terms */
    const answerOfHolder = async () => {
      for (const h of res.getHeaderNames()) if (!ownHeaders.has(h)) res.removeHeader(h);
      const deadline = Date.now() + waitMs;
      for (;;) {
        const row = await read();
        if (row && row.request_hash !== hash) {
          throw new ValidationError([
            {
              path: 'Idempotency-Key',
              message: 'this Idempotency-Key was used with another request (method, path or body); use a new key',
              code: 'idempotency_key_reused',
            },
          ]);
        }
        if (row && row.status !== null) {
          for (const [name, value] of Object.entries(row.headers ?? {})) res.setHeader(name, value);
          res.setHeader('Idempotent-Replayed', 'true');
          res.status(row.status);
          end(row.body ?? undefined);
          return;
        }
        // gone (its request failed with a 5xx, or it expired), its process dead, or past the wait:
        // this request did not run, and a retry will
        if (!row?.lease_live || Date.now() > deadline) {
          throw new ConflictError('a request with this Idempotency-Key is still in progress; retry later');
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    };

    // the answer, whatever writes it (res.json, res.send, res.end), kept as it is sent
    res.end = ((...args: unknown[]) => {
      if (ended) return end(...args);
      ended = true;
      const [chunk, encoding] = args;
      const body =
        chunk === undefined || typeof chunk === 'function'
          ? Buffer.alloc(0)
          : Buffer.isBuffer(chunk)
            ? chunk
            : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      const status = res.statusCode;
      const headers = JSON.stringify(
        Object.fromEntries(
          REPLAYED_HEADERS.flatMap((h) => {
            const v = res.getHeader(h);
            return v === undefined ? [] : [[h, String(v)]];
          }),
        ),
      );
      // outside the request's scope: a client that went away cancels the request's statements,
      // and its answer (or the release of its key) must still be written
      const decided = outsideRequestScope(async () => {
        const state = await gate.settled();
        gate.closed = true;
        if (state === 'claimed') {
          // its write holds the key: its answer is kept, and sent without waiting for that. The
          // answer to a claim committed with its write is kept without waiting for its WAL flush:
          // lost in a crash of the database, it leaves a key whose lease never ends, answered 409,
          // never run again (a flush of its own on every keyed write cost the most, see the docs).
          // A claim made apart may have no write behind it; its answer is kept durably. Answers
          // with their write go in batches (answerBatches).
          const stored =
            status >= 500
              ? keep(
                  'bo_idempotency_release',
                  'DELETE FROM idempotency_key WHERE environment_id = $1 AND token_id = $2 AND key = $3',
                  id,
                )
              : gate.withWrite && batchedAnswer
                ? batchedAnswer({ id, status, headers, body })
                : keep(
                    'bo_idempotency_answer',
                    `UPDATE idempotency_key SET status = $4, headers = $5::jsonb, body = $6, lease_until = now()
                    WHERE environment_id = $1 AND token_id = $2 AND key = $3`,
                    [...id, status, headers, body],
                  );
          stored.catch((err: unknown) => opts.log.error({ err }, 'storing an idempotent answer'));
          return true;
        }
        if (state === 'pending') {
          // it wrote nothing: a 5xx is not kept; any other answer is kept with the key in one
          // statement, unless another request holds the key (then the answer is that one's)
          if (status >= 500) return true;
          // without waiting for the flush: lost in a crash, the request (which wrote nothing) runs again
          const kept = await sql<{ claimed: boolean }>(
            'bo_idempotency_keep',
            `INSERT INTO idempotency_key (environment_id, token_id, key, request_hash, status, headers, body, lease_until, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, now(), now() + make_interval(secs => $8::float8 / 1000))
             ${takeable}`,
            [...id, hash, status, headers, body, ttl],
          );
          return kept.length > 0;
        }
        return false;
      });
      decided
        .then(
          async (own) => {
            if (own) end(...args);
            else await answerOfHolder();
          },
          (err: unknown) => {
            // its answer could not be kept: sent all the same (it wrote nothing, or its key is released by the lease)
            opts.log.error({ err }, 'keeping the answer of an idempotent request');
            end(...args);
          },
        )
        .catch((err: unknown) => render(err, req, res));
      return res;
    }) as typeof res.end;
    next();
  };
}
