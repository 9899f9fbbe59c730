import { request } from 'node:https';
import { startStatementLog } from '../../tests/support/pg-statement-log.js';
import { insertOrganizations, serve, startBenchService } from '../support/service.js';

/**
 * Profiling aid: every statement a second service process sends to PostgreSQL while it answers
 * N requests (default 200, one at a time), grouped by their first words, per request.
 *   [CONCURRENCY=10] statements-per-request.ts [path-and-query] [N]
 */
// `{id}` in the path stands for one organization's id (the first by id)
const pathAndQuery = process.argv[2] ?? '/api/v2/crm/organization?limit=100';
const n = Number(process.argv[3] ?? 200);
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 1_000);
const { rows: first } = await bench.pool.query<{ id: string }>(
  'SELECT id FROM organization WHERE environment_id = $1 ORDER BY id LIMIT 1',
  [env.id],
);
const path = pathAndQuery.replace('{id}', encodeURIComponent(first[0]?.id ?? ''));
const log = await startStatementLog(bench.url);
const dir = (await import('node:fs')).mkdtempSync('/tmp/bo-spr-');
const service = await serve(log.url, dir);
const get = () =>
  new Promise<void>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: service.port,
        path,
        headers: { ...env.v2, host: env.host },
        rejectUnauthorized: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(String(res.statusCode)))));
      },
    );
    req.on('error', reject);
    req.end();
  });
for (let i = 0; i < 20; i += 1) await get();
await new Promise((r) => setTimeout(r, 200));
log.clear();
// CONCURRENCY=10: that many requests in flight at once (statements shared by concurrent requests show)
const concurrency = Number(process.env.CONCURRENCY ?? 1);
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < n) {
      next += 1;
      await get();
    }
  }),
);
await new Promise((r) => setTimeout(r, 200));
const groups = new Map<string, number>();
for (const s of log.statements) {
  const key = `${s.prepared ? 'prepared ' : 'unnamed  '}${s.sql.replace(/\s+/g, ' ').trim().slice(0, 90)}`;
  groups.set(key, (groups.get(key) ?? 0) + 1);
}
for (const [k, v] of [...groups].sort((a, b) => b[1] - a[1])) console.log((v / n).toFixed(3).padStart(7), k);
console.log(`${(log.statements.length / n).toFixed(2)} statements per request`);
await service.stop();
await log.close();
await bench.stop();
process.exit(0);
