import { interleavedRounds, load, row } from './support/load.js';
import { startBenchService } from './support/service.js';
import { record } from './support/summary.js';

/**
 * `pnpm bench change-feed` (issue 29, section 2): a page of 100 of the change feed
 * (`GET /api/v3/change.list?after=<cursor>`) in an environment whose outbox holds 100,000 events,
 * beside the same page in one that holds 1,000,000 (BENCH_FEED_SMALL, BENCH_FEED_LARGE), both
 * read from the middle of the outbox, in interleaved rounds (BENCH_ROUNDS, default 3, of
 * BENCH_DURATION seconds, default 8) at 10 connections. The target: the large figure
 * within 1.5× of the small one (ratio large/small ≥ 0.67).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_DURATION ?? 8);
const SMALL = Number(process.env.BENCH_FEED_SMALL ?? 100_000);
const LARGE = Number(process.env.BENCH_FEED_LARGE ?? 1_000_000);

export default async function run(): Promise<void> {
  const bench = await startBenchService();
  try {
    const small = await bench.environment('feedsmall');
    const large = await bench.environment('feedlarge');
    // the outbox as writes leave it: one event per change, both environments' events interleaved in seq order
    // for the first SMALL of each, then the large one's alone
    console.log(`loading ${SMALL.toLocaleString('en')} and ${LARGE.toLocaleString('en')} events…`);
    // without the outbox's statement trigger: its NOT IN over the statement's rows is quadratic for one
    // statement of a million events (it ran for more than 8 minutes); writes insert a few at a time
    const loader = await bench.pool.connect();
    await loader.query('BEGIN');
    await loader.query('SET LOCAL session_replication_role = replica');
    await loader.query(
      `INSERT INTO event (id, environment_id, type, entity_type, entity_id, data, occurred_at)
       SELECT gen_random_uuid(), CASE WHEN g <= $3::int * 2 AND g % 2 = 0 THEN $1 ELSE $2 END,
              'organization.updated', 'organization', 'organization:' || md5(g::text),
              jsonb_build_object('id', 'organization:' || md5(g::text), 'name', 'Org ' || g, 'updatedAt', now()),
              now() - ((($3::int + $4::int) - g) || ' milliseconds')::interval
         FROM generate_series(1, $3::int + $4::int) g`,
      [small.id, large.id, SMALL, LARGE],
    );
    await loader.query('COMMIT');
    loader.release();
    await bench.pool.query(
      `INSERT INTO webhook_dispatch_cursor (id, last_seq, updated_at) SELECT 1, max(seq), now() FROM event
       ON CONFLICT (id) DO UPDATE SET last_seq = EXCLUDED.last_seq`,
    );
    await bench.pool.query('ANALYZE event');
    const middle = async (environmentId: string) =>
      (
        await bench.pool.query<{ seq: string }>(
          `SELECT seq::text AS seq FROM event WHERE environment_id = $1 ORDER BY seq
           OFFSET (SELECT count(*) / 2 FROM event WHERE environment_id = $1) LIMIT 1`,
          [environmentId],
        )
      ).rows[0]?.seq as string;
    const counts = await bench.pool.query<{ environment_id: string; n: string }>(
      'SELECT environment_id, count(*)::text AS n FROM event GROUP BY environment_id',
    );
    console.log(counts.rows.map((r) => `${r.environment_id}: ${r.n} events`).join(', '));

    const page = (env: typeof small, after: string) => (seconds: number) =>
      load({
        url: `https://127.0.0.1:${bench.service.port}/api/v3/change.list?after=${after}&itemsPerPage=100`,
        headers: { ...env.v3, host: env.host },
        seconds,
      });
    const smallPage = page(small, await middle(small.id));
    const largePage = page(large, await middle(large.id));
    await smallPage(2);
    await largePage(2);
    const r = await interleavedRounds(ROUNDS, { small: () => smallPage(SECONDS), large: () => largePage(SECONDS) });
    console.log(`pages of 100 from the middle of the outbox, 10 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s`);
    console.log(row(`${SMALL.toLocaleString('en')} events`, r.small));
    console.log(row(`${LARGE.toLocaleString('en')} events`, r.large));
    const ratio = r.large.requestsPerSecond / r.small.requestsPerSecond;
    console.log(`ratio (large / small): ${ratio.toFixed(2)}   (target ≥ 0.67: within 1.5×)`);
    record({
      benchmark: 'change-feed',
      figure: `v3 change.list, page of 100 at ${LARGE.toLocaleString('en')} events`,
      value: `${r.large.requestsPerSecond.toFixed(0)} req/s, p99 ${r.large.p99} ms`,
      baseline: `${r.small.requestsPerSecond.toFixed(0)} req/s at ${SMALL.toLocaleString('en')} events`,
      ratio,
      atLeast: 0.67,
    });
  } finally {
    await bench.stop();
  }
}
