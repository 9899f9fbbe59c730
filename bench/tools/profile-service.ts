import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { organizationBaselineSql, startBaselineServer } from '../support/baseline.js';
import { load, row } from '../support/load.js';
import { insertOrganizations, startBenchService, withCustomFieldValues } from '../support/service.js';

/**
 * Profiling aid (not a benchmark): the service under the organization-list load,
 * the inspector's CPU profiler running in the service process, the load
 * generator in a child process. Writes the profile to the path in argv[2].
 *   npx tsx bench/tools/profile-service.ts /tmp/org-list.cpuprofile [path-and-query]
 */
const out = process.argv[2] ?? 'service.cpuprofile';
const pathAndQuery = process.argv[3] ?? '/api/v2/crm/organization?limit=100';
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
// CUSTOM_FIELD=1: a text custom field with a value on every organization, as crm-collection has
if (process.env.CUSTOM_FIELD) await withCustomFieldValues(bench, env);
// PROFILE_BASELINE=1: the plain pg + node:https baseline of the list benchmark instead, for comparison
const baseline = process.env.PROFILE_BASELINE
  ? await startBaselineServer(() => bench.pool.query(organizationBaselineSql(), [env.id]))
  : null;
// `{id}` in the path stands for one organization's id (the first by id)
const { rows: first } = await bench.pool.query<{ id: string }>(
  'SELECT id FROM organization WHERE environment_id = $1 ORDER BY id LIMIT 1',
  [env.id],
);
const servicePath = pathAndQuery.replace('{id}', encodeURIComponent(first[0]?.id ?? ''));
const url = baseline ? baseline.url : `https://127.0.0.1:${bench.service.port}${servicePath}`;
const headers = { ...env.v2, host: env.host };
await load({ url, headers, seconds: 2 });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const c0 = process.cpuUsage();
const seconds = Number(process.env.PROFILE_SECONDS ?? 6);
const r = await load({ url, headers, seconds, connections: Number(process.env.CONNECTIONS ?? 10) });
const cpu = process.cpuUsage(c0);
const { profile } = await session.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
console.log(row(pathAndQuery, r));
console.log(
  `service process CPU ${((cpu.user + cpu.system) / 1000 / (r.requestsPerSecond * seconds)).toFixed(1)} ms per request (user ${(cpu.user / 1000 / (r.requestsPerSecond * seconds)).toFixed(1)}, system ${(cpu.system / 1000 / (r.requestsPerSecond * seconds)).toFixed(1)}; profiler on)`,
);
baseline?.close();
await bench.stop();
process.exit(0);
