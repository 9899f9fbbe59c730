import type { PrismaClient } from '@bo/db';

/**
 * Fans new outbox events out into one delivery per matching subscription.
 *
 * Sequence numbers are taken when an event is inserted but become visible at
 * commit, so a reader could see seq 11 before seq 10 commits and move its
 * cursor past 10 for good. A barrier prevents that: a SHARE lock on `event`
 * waits for every transaction that is inserting events to end (and holds new
 * ones back for a moment), so every seq up to the max read under it is final:
 * committed or rolled back. The lock is released at once; the fan-out of
 * (cursor, horizon] runs in a second transaction that holds the cursor row
 * (SKIP LOCKED: one dispatcher at a time, others move on to deliveries).
 */
export async function dispatchEvents(prisma: PrismaClient, opts: { batchSize?: number } = {}): Promise<number> {
  const batchSize = opts.batchSize ?? 1000;
  await prisma.$executeRawUnsafe(
    `INSERT INTO webhook_dispatch_cursor (id, last_seq, updated_at) VALUES (1, 0, now()) ON CONFLICT (id) DO NOTHING`,
  );
  // cheap check first, so that an idle dispatcher takes no lock
  const [peek] = await prisma.$queryRawUnsafe<{ behind: boolean }[]>(
    `SELECT coalesce((SELECT max(seq) FROM event), 0) > (SELECT last_seq FROM webhook_dispatch_cursor WHERE id = 1) AS behind`,
  );
  if (!peek?.behind) return 0;

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
    if (String((err as { message?: string })?.message ?? err).includes('lock timeout')) return 0;
    throw err;
  }

  return prisma.$transaction(async (tx) => {
    const [cursor] = await tx.$queryRawUnsafe<{ last_seq: string }[]>(
      `SELECT last_seq::text AS last_seq FROM webhook_dispatch_cursor WHERE id = 1 FOR UPDATE SKIP LOCKED`,
    );
    if (!cursor) return 0;
    const from = BigInt(cursor.last_seq);
    const h = BigInt(horizon);
    if (h <= from) return 0;
    const upto = h - from > BigInt(batchSize) ? from + BigInt(batchSize) : h;
    await tx.$executeRawUnsafe(
      `INSERT INTO webhook_delivery
         (id, environment_id, subscription_id, event_id, event_seq, event_type, status, attempts,
          next_attempt_at, retry_from, created_at, updated_at)
       SELECT gen_random_uuid(), e.environment_id, s.id, e.id, e.seq, e.type, 'pending', 0, now(), now(), now(), now()
       FROM event e
       JOIN webhook_subscription s
         ON s.environment_id = e.environment_id
        AND s.is_active
        AND s.created_at <= e.occurred_at
        AND s.events && ARRAY['*', e.type, e.entity_type || '.*']
       WHERE e.seq > $1::bigint AND e.seq <= $2::bigint
       ON CONFLICT (subscription_id, event_id) DO NOTHING`,
      from.toString(),
      upto.toString(),
    );
    await tx.$executeRawUnsafe(
      `UPDATE webhook_dispatch_cursor SET last_seq = $1::bigint, updated_at = now() WHERE id = 1`,
      upto.toString(),
    );
    return Number(upto - from);
  });
}
