import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startCreateService } from '../support/baseline.js';
import { load } from '../support/load.js';

/**
 * Profiling aid (not a benchmark): the service under the load of bench/idempotency.bench.ts, one
 * profile with a fresh Idempotency-Key per create and one without, the inspector's CPU profiler
 * in the service process. Prints the service process's CPU time per create of each.
 *   npx tsx bench/tools/profile-idempotency.ts /tmp/idem   (writes /tmp/idem-with.cpuprofile, /tmp/idem-without.cpuprofile)
 */
const out = process.argv[2] ?? 'idempotency';
const { bench, env } = await startCreateService();
const url = `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization`;
const headers = { ...env.v2, host: env.host, 'content-type': 'application/json' };
const body = JSON.stringify({ name: 'Idem [<id>] BV' });
const drive = (uniqueHeader: string, seconds: number) => load({ url, headers, method: 'POST', body, uniqueHeader, seconds });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
const seconds = Number(process.env.PROFILE_SECONDS ?? 6);
for (const [side, header] of [
  ['without', 'x-bench-tag'],
  ['with', 'idempotency-key'],
] as const) {
  await drive(header, 2);
  await session.post('Profiler.start');
  const c0 = process.cpuUsage();
  const r = await drive(header, seconds);
  const cpu = process.cpuUsage(c0);
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(`${out}-${side}.cpuprofile`, JSON.stringify(profile));
  const n = r.requestsPerSecond * seconds;
  console.log(
    `${side}: ${r.requestsPerSecond.toFixed(0)} creates/s, node ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms per create`,
  );
}
await bench.stop();
process.exit(0);
