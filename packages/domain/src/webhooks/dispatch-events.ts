import type { PrismaClient } from '@bo/db';
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
 */
const cursorEnsured = new WeakSet<object>();

export interface DispatchResult {
  /** the span of sequence numbers the cursor moved past */
  moved: number;
  /** events are left behind the cursor (a full batch, or the barrier gave up): dispatch again soon */
  again: boolean;
}

export async function dispatchEvents(prisma: PrismaClient, opts: { batchSize?: number } = {}): Promise<DispatchResult> {
  const batchSize = opts.batchSize ?? DISPATCH_BATCH;
  if (!cursorEnsured.has(prisma)) {
    await prisma.$executeRawUnsafe(
      `INSERT INTO webhook_dispatch_cursor (id, last_seq, updated_at) VALUES (1, 0, now()) ON CONFLICT (id) DO NOTHING`,
    );
    cursorEnsured.add(prisma);
  }
  // cheap check first, so that an idle dispatcher takes no lock
  const [peek] = await prisma.$queryRawUnsafe<{ behind: boolean }[]>(
    `SELECT coalesce((SELECT max(seq) FROM event), 0) > (SELECT last_seq FROM webhook_dispatch_cursor WHERE id = 1) AS behind`,
  );
  if (!peek?.behind) return { moved: 0, again: false };

  let horizon: string;
  try {
    horizon = await prisma.$transaction(async (tx) => {
      // a long transaction must not hold writers back behind this lock: give up and try again later
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '50ms'`);
      await tx.$executeRawUnsafe('LOCK TABLE event IN SHARE MODE');
      const [r] = await tx.$queryRawUnsafe<{ max: string }[]>(`SELECT coalesce(max(seq), 0)::text AS max FROM event`);
      return r?.max ?? '0';
    });
  } catch (err) {
    if (String((err as { message?: string })?.message ?? err).includes('lock timeout')) return { moved: 0, again: true };
    throw err;
  }

  const [moved] = await prisma.$queryRawUnsafe<{ n: number }[]>(
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
     RETURNING (span.upto - span.from_seq)::int AS n`,
    horizon,
    batchSize,
  );
  const n = moved?.n ?? 0;
  return { moved: n, again: n >= batchSize };
}
