import pg from 'pg';
import { backendTimer } from '../support/backend-cpu.js';
import { fastTypes } from '../../packages/db/src/timestamps.js';
import { organization } from '../../packages/domain/src/crm/organization/organization.entity.js';
import { insertOrganizations, startBenchService } from '../support/service.js';

/**
 * Profiling aid: the change-tracking page (updated_at >= ts, newest first) as one statement planned
 * every time, against its ids planned every time then the rows by id through a prepared statement:
 * Node CPU and PostgreSQL backend CPU per page.   npx tsx bench/tools/micro-change-tracking.ts
 */
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
await bench.pool.query('ANALYZE');
const ts = (
  await bench.pool.query<{ u: Date }>(
    'SELECT updated_at AS u FROM organization WHERE environment_id = $1 ORDER BY updated_at DESC OFFSET 499 LIMIT 1',
    [env.id],
  )
).rows[0]?.u;
const ids = `SELECT t.id FROM organization t WHERE t.environment_id = $1 AND t.updated_at >= $2 ORDER BY t.updated_at DESC, t.id LIMIT 100`;
const select = organization.loader.selectList();
const one = `WITH page AS (${ids}) SELECT ${select} FROM page CROSS JOIN LATERAL (SELECT * FROM organization r WHERE r.id = page.id AND r.environment_id = $1 OFFSET 0) t ORDER BY t.updated_at DESC, t.id`;
const byIds = `SELECT ${select} FROM unnest($2::text[]) WITH ORDINALITY AS page(id, n) CROSS JOIN LATERAL (SELECT * FROM organization r WHERE r.id = page.id AND r.environment_id = $1 OFFSET 0) t ORDER BY page.n`;
const N = Number(process.argv[2] ?? 1000);
const client = new pg.Client({ connectionString: bench.url, types: fastTypes });
await client.connect();
const timer = await backendTimer(client, N);
const time = (label: string, q: () => Promise<unknown>) => timer(label, q, 34);
const split = async () => {
  const r = await client.query<{ id: string }>(ids, [env.id, ts]);
  return client.query({ name: 'rows', text: byIds, values: [env.id, r.rows.map((x) => x.id)] });
};
const a = await client.query(one, [env.id, ts]);
const b = await split();
console.log('same rows', JSON.stringify(a.rows) === JSON.stringify(b.rows), a.rows.length);
for (let round = 0; round < 2; round += 1) {
  await time('one statement, planned each time', () => client.query(one, [env.id, ts]));
  await time('ids planned, rows prepared', split);
  await time('ids alone', () => client.query(ids, [env.id, ts]));
}
await client.end();
await bench.stop();
process.exit(0);
