import { type PrismaClient, rawRead } from '@bo/db';
import { z } from 'zod';
import { defineJob } from '../shared/jobs.js';

/** Every hour (a schedule of the worker's): pruneEvents with the configured retention. */
export const pruneEventsJob = defineJob({
  name: 'events.prune',
  version: 1,
  payload: z.object({}),
});

/** how long the outbox keeps an event, and so how far back a change-feed cursor can start: 30 days */
export const DEFAULT_EVENT_RETENTION_DAYS = 30;

const BATCH = 10_000;

/**
 * Deletes the outbox's events older than the retention, oldest first, in batches on the seq
 * index (a window of the oldest BATCH seqs at a time: never a scan of the recent ones), and
 * raises `event_retention.pruned_through_seq` to the highest seq deleted, so that a feed cursor
 * below it answers 410. Kept: events the webhook dispatcher has not passed yet (not final) and
 * events a pending delivery still needs. Answers how many went.
 */
export async function pruneEvents(prisma: PrismaClient, retentionDays: number): Promise<number> {
  const read = rawRead(prisma);
  let total = 0;
  for (;;) {
    const [r] = await read<{ n: number; window_old: boolean }>(
      `WITH window_ AS (
         SELECT seq, id, occurred_at FROM event ORDER BY seq LIMIT $2
       ), gone AS (
         DELETE FROM event e USING window_ w
          WHERE e.seq = w.seq
            AND w.occurred_at < now() - make_interval(days => $1::int)
            AND w.seq <= coalesce((SELECT last_seq FROM webhook_dispatch_cursor WHERE id = 1), 0)
            AND NOT EXISTS (SELECT 1 FROM webhook_delivery d WHERE d.event_id = w.id AND d.status = 'pending')
          RETURNING e.seq
       ), raised AS (
         INSERT INTO event_retention (id, pruned_through_seq, updated_at)
         SELECT 1, max(seq), now() FROM gone HAVING count(*) > 0
         ON CONFLICT (id) DO UPDATE
           SET pruned_through_seq = greatest(event_retention.pruned_through_seq, EXCLUDED.pruned_through_seq),
               updated_at = now()
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM gone)::int AS n,
              coalesce((SELECT bool_or(occurred_at < now() - make_interval(days => $1::int)) FROM window_), false) AS window_old`,
      [retentionDays, BATCH],
    );
    const n = r?.n ?? 0;
    total += n;
    // a window with nothing deletable left (all recent, or held by pending deliveries) ends the run
    if (n === 0 || !r?.window_old) break;
  }
  return total;
}
