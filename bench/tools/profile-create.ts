import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { load, row } from '../support/load.js';
import { CREATE_BODY, startCreateService } from '../support/baseline.js';

/**
 * Profiling aid (not a benchmark): the service under the organization-create load of
 * bench/organization-create.bench.ts, the inspector's CPU profiler in the service process.
 *   npx tsx bench/tools/profile-create.ts /tmp/org-create.cpuprofile
 * Prints the service process's CPU time per create.
 */
const out = process.argv[2] ?? 'create.cpuprofile';
const { bench, env } = await startCreateService();
const url = `https://127.0.0.1:${bench.service.port}/api/v2/crm/organization`;
const headers = { ...env.v2, host: env.host, 'content-type': 'application/json' };
const body = JSON.stringify(CREATE_BODY);
const drive = (seconds: number) =>
  load({ url, headers, method: 'POST', body, idReplacement: true, seconds, connections: Number(process.env.CONNECTIONS ?? 10) });
await drive(2);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const c0 = process.cpuUsage();
const seconds = Number(process.env.PROFILE_SECONDS ?? 6);
const r = await drive(seconds);
const cpu = process.cpuUsage(c0);
const { profile } = await session.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
const n = r.requestsPerSecond * seconds;
console.log(row('POST /api/v2/crm/organization', r));
console.log(
  `service process CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(1)} ms per create (user ${(cpu.user / 1000 / n).toFixed(1)}, system ${(cpu.system / 1000 / n).toFixed(1)}; profiler on)`,
);
await bench.stop();
process.exit(0);
