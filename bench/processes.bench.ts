import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startAndWaitHealthy } from './support/compiled-start.js';
import { load, row } from './support/load.js';
import { insertOrganizations, startBenchService } from './support/service.js';
import { record } from './support/summary.js';

/**
 * WEB_CONCURRENCY (issue 15, "Several processes"): the organization list benchmark's request
 * (GET /api/v2/crm/organization?limit=100 over 10,000 organizations, 10 connections) against
 * the compiled start with one process, then with two, on the same database in the same run.
 * The baseline is the one process. On this 2-core machine the load generator and PostgreSQL
 * share the cores with the service: the ratio says what a second process adds here, not on a
 * machine with cores to spare. BENCH_PROCESSES_SECONDS (default 8) per measurement.
 */
export default async function run(): Promise<void> {
  const seconds = Math.max(1, Number(process.env.BENCH_PROCESSES_SECONDS ?? 8));
  const bench = await startBenchService();
  const env = await bench.environment('bench');
  await insertOrganizations(bench.pool, env.id, 10_000);
  // the in-process service only set the database up: the measured ones are child processes
  await bench.service.stop();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bo-bench-processes-'));
  const url = (port: number) => `https://127.0.0.1:${port}/api/v2/crm/organization?limit=100`;
  const measure = async (processes: number) => {
    const started = await startAndWaitHealthy(
      {
        DATABASE_URL: bench.url,
        DATA_DIR: dataDir,
        WEB_CONCURRENCY: String(processes),
        SEED_DEMO: 'false',
        RUN_WORKER: 'false',
        LOG_LEVEL: 'info',
        RATE_LIMIT_PER_MINUTE: '1000000',
      },
      { readyText: processes > 1 ? new RegExp(`process ${processes} of ${processes} \\(pid \\d+\\) serves`) : undefined },
    );
    try {
      await load({ url: url(started.port), headers: { ...env.v2, host: env.host }, seconds: 2 });
      console.log(
        `load average before ${processes} process(es): ${loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')}`,
      );
      return await load({ url: url(started.port), headers: { ...env.v2, host: env.host }, seconds });
    } finally {
      await started.stop();
    }
  };
  try {
    const one = await measure(1);
    const two = await measure(2);
    console.log(`10,000 organizations, pages of 100, 10 connections, ${seconds} s each`);
    console.log(row('1 process (WEB_CONCURRENCY=1)', one));
    console.log(row('2 processes (WEB_CONCURRENCY=2)', two));
    console.log(`ratio (2 / 1): throughput ${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)}`);
    record({
      benchmark: 'processes',
      figure: 'v2 list, 100 of 10,000 rows, 10 connections: 2 processes vs 1',
      value: `${two.requestsPerSecond.toFixed(0)} req/s, p99 ${two.p99.toFixed(0)} ms`,
      baseline: `${one.requestsPerSecond.toFixed(0)} req/s, p99 ${one.p99.toFixed(0)} ms (1 process)`,
      ratio: two.requestsPerSecond / one.requestsPerSecond,
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await bench.stop();
  }
}
