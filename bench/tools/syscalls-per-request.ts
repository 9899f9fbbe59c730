import { execFile } from 'node:child_process';
import { organizationBaselineSql, startBaselineServer } from '../support/baseline.js';
import { load } from '../support/load.js';
import { insertOrganizations, startBenchService } from '../support/service.js';

/**
 * Profiling aid (not a benchmark): the system calls of this process (service and baseline run in
 * it) while each answers the organization-list load, counted by `strace -c` for 5 seconds; divide
 * by the requests answered meanwhile. mmap/munmap per request showed the large-object allocations
 * of a page's JSON (see packages/runtime/src/json-answer.ts).
 *   npx tsx bench/tools/syscalls-per-request.ts [path-and-query | byId]
 * (`byId`: one organization by id, the first of the environment)
 */
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
const [first] = (
  await bench.pool.query<{ id: string }>('SELECT id FROM organization WHERE environment_id = $1 ORDER BY id LIMIT 1', [env.id])
).rows;
const pathAndQuery =
  process.argv[2] === 'byId'
    ? `/api/v2/crm/organization/${first?.id}`
    : (process.argv[2] ?? '/api/v2/crm/organization?limit=100');
const baseline = await startBaselineServer(() => bench.pool.query(organizationBaselineSql(), [env.id]));
const SECONDS = 5;
const strace = () =>
  new Promise<string>((resolve) => {
    execFile('timeout', ['-s', 'INT', String(SECONDS), 'strace', '-c', '-f', '-p', String(process.pid)], (_e, _o, err) =>
      resolve(
        err
          .split('\n')
          .filter((l) => !l.includes('attached') && !l.includes('detached'))
          .join('\n'),
      ),
    );
  });
const targets: [string, string, Record<string, string>][] = [
  [
    'service',
    `https://127.0.0.1:${bench.service.port}${pathAndQuery}`,
    { ...(env.v2 as Record<string, string>), host: env.host },
  ],
  ['baseline', baseline.url, {}],
];
for (const [label, url, headers] of targets) {
  await load({ url, headers, seconds: 2 });
  const [result, calls] = await Promise.all([
    load({ url, headers, seconds: SECONDS + 2 }),
    new Promise((r) => setTimeout(r, 1000)).then(strace),
  ]);
  console.log(
    `--- ${label}: ${result.requestsPerSecond} req/s, about ${Math.round(result.requestsPerSecond * SECONDS)} requests counted\n${calls}`,
  );
}
await bench.stop();
process.exit(0);
