import { databaseBackendsCpuMs } from './support/backend-cpu.js';
import { startCreateService } from './support/baseline.js';
import { interleavedRounds, type LoadResult, load, row } from './support/load.js';
import { loadAverage, record } from './support/summary.js';

/**
 * `pnpm bench idempotency` (issue 29, section 1): what an Idempotency-Key costs a write.
 * `POST /api/v2/crm/organization` (a name) at 10 connections, each request with a fresh
 * `Idempotency-Key`, beside the same requests with a fresh value in a header the service ignores
 * (the load generator does the same work on both sides), in interleaved rounds (BENCH_ROUNDS,
 * default 3, of BENCH_DURATION seconds, default 6). The target: at most 15% dearer
 * (ratio with/without ≥ 0.85). Beside req/s, the CPU per create of the service (this process)
 * and of its PostgreSQL backends, which a loaded machine disturbs less than throughput.
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
    const database = new URL(bench.url).pathname.slice(1);
    /** CPU (ms) of this process and of the database's backends, and creates, summed over a side's rounds */
    const cpu = { without: { node: 0, pg: 0, n: 0 }, withKey: { node: 0, pg: 0, n: 0 } };
    const measured = (side: keyof typeof cpu, run: (s: number) => Promise<LoadResult>) => async () => {
      const pg0 = await databaseBackendsCpuMs(bench.pool, database);
      const c0 = process.cpuUsage();
      const r = await run(SECONDS);
      const c = process.cpuUsage(c0);
      for (const [pid, ms] of await databaseBackendsCpuMs(bench.pool, database)) cpu[side].pg += ms - (pg0.get(pid) ?? 0);
      cpu[side].node += (c.user + c.system) / 1000;
      cpu[side].n += r.requestsPerSecond * SECONDS;
      return r;
    };
    await without(2);
    await withKey(2);
    const r = await interleavedRounds(ROUNDS, { without: measured('without', without), withKey: measured('withKey', withKey) });
    const perCreate = (side: keyof typeof cpu) => {
      const { node, pg, n } = cpu[side];
      return { node: node / n, pg: pg / n, total: (node + pg) / n };
    };
    const cpuOf = (side: keyof typeof cpu) => {
      const c = perCreate(side);
      return `CPU per create: node ${c.node.toFixed(2)} ms, postgres ${c.pg.toFixed(2)} ms, total ${c.total.toFixed(2)} ms`;
    };
    console.log(`creates, 10 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s (req/s the mean, p99 the median)`);
    console.log(row('POST, no Idempotency-Key', r.without));
    console.log(`${''.padEnd(45)}${cpuOf('without')}`);
    console.log(row('POST with a fresh Idempotency-Key', r.withKey));
    console.log(`${''.padEnd(45)}${cpuOf('withKey')}`);
    const ratio = r.withKey.requestsPerSecond / r.without.requestsPerSecond;
    const cpuRatio = perCreate('without').total / perCreate('withKey').total;
    console.log(
      `ratio (with / without): ${ratio.toFixed(2)}   (target ≥ 0.85)   CPU ratio (without / with per create): ${cpuRatio.toFixed(2)}   load average ${loadAverage()}`,
    );
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
