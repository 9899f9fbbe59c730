import { databaseBackendsCpuMs } from '../support/backend-cpu.js';
import { organizationBaselineSql, startBaselineServer } from '../support/baseline.js';
import { load } from '../support/load.js';
import { insertOrganizations, startBenchService, withCustomFieldValues } from '../support/service.js';

/**
 * Profiling aid (not a benchmark): CPU per request of the service process and of its
 * PostgreSQL backends, beside the organization-list baseline (pg + node:https) in the same
 * process. CPU per request stays meaningful on a shared, loaded machine, where req/s does not.
 *   [CUSTOM_FIELD=1] [ROWS=100000] npx tsx bench/tools/cpu-per-request.ts [path-and-query | changes] [seconds]
 */
// `changes` as the path: the change-tracking page (500 rows newer than `since`), beside the baseline
// reading the same page; any other path is compared with the first page's baseline
const changes = process.argv[2] === 'changes';
const since = new Date(Date.now() - 500_500).toISOString();
const pathAndQuery = changes
  ? `/api/v2/crm/organization?q[updated_at][ge]=${encodeURIComponent(since.slice(0, 19).replace('T', ' '))}&sort=-updated_at&limit=100`
  : (process.argv[2] ?? '/api/v2/crm/organization?limit=100');
const seconds = Number(process.argv[3] ?? 6);
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, Number(process.env.ROWS ?? 10_000));
// CUSTOM_FIELD=1: a text custom field with a value on every organization, as crm-collection has
if (process.env.CUSTOM_FIELD) await withCustomFieldValues(bench, env);
// `{id}` in the path stands for one organization's id (the first by id)
const { rows: first } = await bench.pool.query<{ id: string }>(
  'SELECT id FROM organization WHERE environment_id = $1 ORDER BY id LIMIT 1',
  [env.id],
);
const servicePath = pathAndQuery.replace('{id}', encodeURIComponent(first[0]?.id ?? ''));
const database = new URL(bench.url).pathname.slice(1);
const sql = changes
  ? organizationBaselineSql(' AND o.updated_at >= $2', 'o.updated_at DESC, o.id DESC')
  : organizationBaselineSql();
const baseline = await startBaselineServer(() => bench.pool.query(sql, changes ? [env.id, since] : [env.id]));
const baselinePort = baseline.port;

const postgresCpuMs = () => databaseBackendsCpuMs(bench.pool, database);
/** CPU of the backends between two snapshots (a backend that connected in between counts whole) */
function spent(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, t] of after) ms += t - (before.get(pid) ?? 0);
  return ms;
}

async function measure(label: string, url: string, headers: Record<string, string>) {
  await load({ url, headers, seconds: 2 });
  const pg0 = await postgresCpuMs();
  const c0 = process.cpuUsage();
  const r = await load({ url, headers, seconds });
  const cpu = process.cpuUsage(c0);
  const pgMs = spent(pg0, await postgresCpuMs());
  const n = r.requestsPerSecond * seconds;
  const node = (cpu.user + cpu.system) / 1000 / n;
  const pgPer = pgMs / n;
  console.log(
    `${label.padEnd(48)} ${r.requestsPerSecond.toFixed(0).padStart(5)} req/s  node ${node.toFixed(2)} ms  postgres ${pgPer.toFixed(2)} ms  total ${(node + pgPer).toFixed(2)} ms per request`,
  );
  return node + pgPer;
}
// ROUNDS=n: n rounds of baseline then service, and the median of their ratios (noise on a shared machine)
const ratios: number[] = [];
for (let round = 0; round < Number(process.env.ROUNDS ?? 1); round += 1) {
  const b = await measure('baseline (pg + node:https)', `https://127.0.0.1:${baselinePort}/`, {});
  const s = await measure(pathAndQuery, `https://127.0.0.1:${bench.service.port}${servicePath}`, {
    ...(pathAndQuery.startsWith('/api/v3') ? env.v3 : env.v2),
    host: env.host,
  });
  ratios.push(b / s);
  console.log(`CPU cost ratio baseline/service ${(b / s).toFixed(2)}`);
}
ratios.sort((x, y) => x - y);
if (ratios.length > 1) console.log(`median CPU cost ratio ${(ratios[Math.floor(ratios.length / 2)] as number).toFixed(2)}`);
baseline.close();
await bench.stop();
process.exit(0);
