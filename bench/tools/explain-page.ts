import { compileList } from '@bo/db';
import { organization } from '@bo/domain/crm/organization/organization.entity';
import { insertOrganizations, startBenchService } from '../support/service.js';

/** Profiling aid: EXPLAIN ANALYZE of the organization page statement and of the custom-field read. */
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
const compiled = compileList(organization.sqlModel, env.id, { orderBy: organization.defaultSort, offset: 0, limit: 100, count: false }, { canRead: () => true });
const sql = `WITH page AS (${compiled.pageSql}) SELECT ${organization.loader.selectList()} FROM page JOIN organization t ON t.id = page.id AND t.environment_id = $1 ORDER BY ${compiled.orderSql}`;
if (process.argv[2] === 'sql') console.log(sql);
for (let i = 0; i < 3; i += 1) await bench.pool.query(sql, compiled.pageParams);
const r = await bench.pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, compiled.pageParams);
console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
await bench.stop();
process.exit(0);
