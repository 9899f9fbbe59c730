import { startCreateService } from './support/baseline.js';
import { interleavedRounds, load, row } from './support/load.js';
import { loadAverage, record } from './support/summary.js';

/**
 * `pnpm bench idempotency` (issue 29, section 1): what an Idempotency-Key costs a write.
 * `POST /api/v2/crm/organization` (a name) at 10 connections, each request with a fresh
 * `Idempotency-Key`, beside the same requests with a fresh value in a header the service ignores
 * (the load generator does the same work on both sides), in interleaved rounds (BENCH_ROUNDS,
 * default 3, of BENCH_DURATION seconds, default 6). The target: at most 15% dearer
 * (ratio with/without ≥ 0.85).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_DURATION ?? 6);

export default async function run(): Promise<void> {
  const { bench, env } = await startCreateService();
  try {
    const url = `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization`;
    const headers = { ...env.v2, host: env.host, 'content-type': 'application/json' };
    const body = JSON.stringify({ name: 'Idem [<id>] BV' });
    const drive = (uniqueHeader: string) => (seconds: number) =>
      load({ url, headers, method: 'POST', body, uniqueHeader, seconds });
    const withKey = drive('idempotency-key');
    const without = drive('x-bench-tag');
    await without(2);
    await withKey(2);
    const r = await interleavedRounds(ROUNDS, { without: () => without(SECONDS), withKey: () => withKey(SECONDS) });
    console.log(`creates, 10 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s (req/s the mean, p99 the median)`);
    console.log(row('POST, no Idempotency-Key', r.without));
    console.log(row('POST with a fresh Idempotency-Key', r.withKey));
    const ratio = r.withKey.requestsPerSecond / r.without.requestsPerSecond;
    console.log(`ratio (with / without): ${ratio.toFixed(2)}   (target ≥ 0.85)   load average ${loadAverage()}`);
    const stored = await bench.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM idempotency_key');
    console.log(`answers kept: ${stored.rows[0]?.n}`);
    record({
      benchmark: 'idempotency',
      figure: 'v2 create with a fresh Idempotency-Key against without, 10 connections',
      value: `${r.withKey.requestsPerSecond.toFixed(0)} creates/s, p99 ${r.withKey.p99} ms`,
      baseline: `${r.without.requestsPerSecond.toFixed(0)} creates/s, p99 ${r.without.p99} ms`,
      ratio,
      atLeast: 0.85,
    });
  } finally {
    await bench.stop();
  }
}
