import { type PrismaClient, rawRead, rawScript } from '@bo/db';
import { DISPATCH_BATCH } from './delivery-policy.js';

/**
 * Fans new outbox events out into one delivery per matching subscription.
 *
 * Sequence numbers are taken when an event is inserted but become visible at
 * commit, so a reader could see seq 11 before seq 10 commits and move its
 * cursor past 10 for good. A barrier prevents that: a SHARE lock on `event`
 * waits for every transaction that is inserting events to end (and holds new
 * ones back for a moment), so every seq up to the max read under it is final:
 * committed or rolled back. The lock is released at once; the fan-out of
 * (cursor, horizon] is one statement that holds the cursor row (SKIP LOCKED:
 * one dispatcher at a time, others move on to deliveries), so it commits the
 * deliveries and the new cursor together, in one round trip.
 *
 * Writers notify only when they find the cursor caught up (the outbox trigger of
 * migration 20261124220000_event_recorded_notify), so the dispatcher that moves
 * the cursor must look again itself whenever a writer may have found it behind
 * and stayed silent: one that took its seq after the horizon was read, while the
 * cursor had not moved yet. The fan-out reads the event sequence's last value
 * (not transactional: it counts transactions still in flight); when a seq was
 * taken past the new cursor, `followUp` asks for another round through the
 * barrier (`{ barrier: true }`), which waits for such a writer and fans it out.
 * A round that moves nothing ends the chain: a writer after it finds the cursor
 * caught up and notifies.
 */
const cursorEnsured = new WeakSet<object>();

export interface DispatchResult {
  /** the span of sequence numbers the cursor moved past */
  moved: number;
  /** dispatch again at once, with `barrier: true`: a full batch, or a seq was taken past the new cursor */
  followUp: boolean;
  /** the barrier gave up (a long writer holds the outbox): dispatch again soon, with `barrier: true` */
  gaveUp: boolean;
}

export interface DispatchOptions {
  batchSize?: number;
  /** go through the barrier even when the cheap check sees nothing: events in flight are invisible to it */
  barrier?: boolean;
}

export async function dispatchEvents(prisma: PrismaClient, opts: DispatchOptions = {}): Promise<DispatchResult> {
  const batchSize = opts.batchSize ?? DISPATCH_BATCH;
  if (!cursorEnsured.has(prisma)) {
    await rawRead(prisma)(
      `INSERT INTO webhook_dispatch_cursor (id, last_seq, updated_at) VALUES (1, 0, now()) ON CONFLICT (id) DO NOTHING`,
      [],
    );
    cursorEnsured.add(prisma);
  }
  // cheap check first, so that an idle dispatcher takes no lock
  if (!opts.barrier) {
    const [peek] = await rawRead(prisma)<{ behind: boolean }>(
      `SELECT coalesce((SELECT max(seq) FROM event), 0) > (SELECT last_seq FROM webhook_dispatch_cursor WHERE id = 1) AS behind`,
      [],
    );
    if (!peek?.behind) return { moved: 0, followUp: false, gaveUp: false };
  }

  let horizon: string;
  try {
    // one round trip, one transaction; a long transaction must not hold writers back behind
    // this lock: give up and try again later
    const [r] = await rawScript(prisma)<{ max: string }>([
      `SET LOCAL lock_timeout = '50ms'`,
      'LOCK TABLE event IN SHARE MODE',
      'SELECT coalesce(max(seq), 0)::text AS max FROM event',
    ]);
    horizon = r?.max ?? '0';
  } catch (err) {
    if (String((err as { message?: string })?.message ?? err).includes('lock timeout')) {
      return { moved: 0, followUp: false, gaveUp: true };
    }
    throw err;
  }

  const [moved] = await rawRead(prisma)<{ n: number; upto: string }>(
    `WITH cursor AS (
       SELECT last_seq FROM webhook_dispatch_cursor WHERE id = 1 FOR UPDATE SKIP LOCKED
     ), span AS (
       SELECT last_seq AS from_seq, least($1::bigint, last_seq + $2::bigint) AS upto
       FROM cursor WHERE $1::bigint > last_seq
     ), fanned AS (
       INSERT INTO webhook_delivery
         (id, environment_id, subscription_id, event_id, event_seq, event_type, status, attempts,
          next_attempt_at, retry_from, created_at, updated_at)
       SELECT gen_random_uuid(), e.environment_id, s.id, e.id, e.seq, e.type, 'pending', 0, now(), now(), now(), now()
       FROM span
       JOIN event e ON e.seq > span.from_seq AND e.seq <= span.upto
       JOIN webhook_subscription s
         ON s.environment_id = e.environment_id
        AND s.is_active
        AND s.created_at <= e.occurred_at
        AND s.events && ARRAY['*', e.type, e.entity_type || '.*']
       ON CONFLICT (subscription_id, event_id) DO NOTHING
     )
     UPDATE webhook_dispatch_cursor c SET last_seq = span.upto, updated_at = now()
     FROM span WHERE c.id = 1
     RETURNING (span.upto - span.from_seq)::int AS n, span.upto::text AS upto`,
    [horizon, batchSize],
  );
  const n = moved?.n ?? 0;
  if (n === 0 || !moved) return { moved: 0, followUp: false, gaveUp: false };
  if (n >= batchSize) return { moved: n, followUp: true, gaveUp: false };
  // read after the new cursor is committed: a writer that found the old one took its seq before
  const [taken] = await rawRead(prisma)<{ beyond: boolean }>(
    `SELECT (CASE WHEN is_called THEN last_value ELSE 0 END) > $1::bigint AS beyond FROM event_seq_seq`,
    [moved.upto],
  );
  return { moved: n, followUp: taken?.beyond === true, gaveUp: false };
}
