import { interleavedRounds, load, row } from './support/load.js';
import { insertOrganizations, startBenchService } from './support/service.js';
import { organizationBaselineSql, startBaselineServer } from './support/baseline.js';
import { record } from './support/summary.js';

/**
 * GET /api/v2/crm/organization?limit=100 over 10,000 organizations at 10
 * concurrent connections, beside a baseline in the same process: the same page
 * read with plain pg (one query with joins) and written with node:https, in interleaved rounds
 * (BENCH_ROUNDS, default 3, of BENCH_DURATION seconds, default 6).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_DURATION ?? 6);

export default async function run(): Promise<void> {
  const bench = await startBenchService();
  const env = await bench.environment('bench');
  await insertOrganizations(bench.pool, env.id, 10_000);
  const sql = organizationBaselineSql();
  const baseline = await startBaselineServer(() => bench.pool.query(sql, [env.id]));
  const baselinePort = baseline.port;

  try {
    const baseUrl = `https://127.0.0.1:${baselinePort}/`;
    const page = (seconds: number) =>
      load({
        url: `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization?limit=100`,
        headers: { ...env.v2, host: env.host },
        seconds,
      });
    // warm both up so the first measured second is not a cold start
    await load({ url: baseUrl, seconds: 2 });
    await page(2);
    const { base, api } = await interleavedRounds(ROUNDS, {
      base: () => load({ url: baseUrl, seconds: SECONDS }),
      api: () => page(SECONDS),
    });
    console.log(
      `10,000 organizations, pages of 100, 10 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s each (req/s the mean, p99 the median)`,
    );
    console.log(row('baseline (pg + node:https, same page)', base));
    console.log(row('GET /api/v2/crm/organization?limit=100', api));
    console.log(
      `ratio (service / baseline): throughput ${(api.requestsPerSecond / base.requestsPerSecond).toFixed(2)}, ` +
        `p99 ${(api.p99 / Math.max(base.p99, 1)).toFixed(2)}x   (target: throughput ratio >= 0.6)`,
    );
    record({
      benchmark: 'organization-list',
      figure: 'v2 list, 100 of 10,000 rows, 10 connections',
      value: `${api.requestsPerSecond.toFixed(0)} req/s, p99 ${api.p99.toFixed(0)} ms`,
      baseline: `${base.requestsPerSecond.toFixed(0)} req/s, p99 ${base.p99.toFixed(0)} ms`,
      ratio: api.requestsPerSecond / base.requestsPerSecond,
      atLeast: 0.6,
    });
  } finally {
    baseline.close();
    await bench.stop();
  }
}
