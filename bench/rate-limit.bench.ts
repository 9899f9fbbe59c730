import { loadavg } from 'node:os';
import { type LoadResult, load, row } from './support/load.js';
import { insertOrganizations, startBenchService } from './support/service.js';
import { record } from './support/summary.js';

/**
 * What the shipped rate limit costs a request: the organization list (100 of 10,000) at 10
 * connections against two services on one database, one with the limit on as shipped (a limit
 * no run reaches: every request is counted, none refused) and one with it off, rounds
 * interleaved. Counting is shared across processes in PostgreSQL, in blocks (runtime/rate-limit.ts).
 */
export default async function run(): Promise<void> {
  const bench = await startBenchService();
  const env = await bench.environment('bench');
  await insertOrganizations(bench.pool, env.id, 10_000);
  const unlimited = await bench.another(0);
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const url = (port: number) => `https://127.0.0.1:${port}/api/v2/crm/organization?limit=100`;
  const headers = { ...env.v2, host: env.host };
  try {
    await load({ url: url(bench.service.port), headers, seconds: 2 });
    await load({ url: url(unlimited.port), headers, seconds: 2 });
    const on: LoadResult[] = [];
    const off: LoadResult[] = [];
    for (let i = 0; i < rounds; i += 1) {
      console.log(
        `round ${i + 1}, load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
      on.push(await load({ url: url(bench.service.port), headers, seconds }));
      off.push(await load({ url: url(unlimited.port), headers, seconds }));
    }
    const mean = (rs: LoadResult[]) => rs.reduce((a, r) => a + r.requestsPerSecond, 0) / rs.length;
    const p99 = (rs: LoadResult[]) => Math.max(...rs.map((r) => r.p99));
    console.log(row('rate limit on (as shipped)', on[on.length - 1] as LoadResult));
    console.log(row('rate limit off', off[off.length - 1] as LoadResult));
    const ratio = mean(on) / mean(off);
    const perRequestMs = 1000 / mean(on) - 1000 / mean(off);
    console.log(
      `with the limit on: ${ratio.toFixed(2)} of the throughput without it (${perRequestMs.toFixed(2)} ms per request)`,
    );
    record({
      benchmark: 'rate-limit',
      figure: 'v2 list with the rate limit on (as shipped) against off, 10 connections',
      value: `${mean(on).toFixed(0)} req/s, p99 ${p99(on)} ms`,
      baseline: `${mean(off).toFixed(0)} req/s, p99 ${p99(off)} ms`,
      ratio,
    });
  } finally {
    await bench.stop();
  }
}
