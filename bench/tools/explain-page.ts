import { compileList } from '@bo/db';
import { organization } from '@bo/domain/crm/organization/organization.entity';
import { capturedStatement } from '../../tests/support/captured-statement.js';
import { insertOrganizations, startBenchService } from '../support/service.js';

/**
 * Profiling aid: EXPLAIN (ANALYZE, BUFFERS) of the organization page statement as the loader
 * builds it, over 10,000 rows.   npx tsx bench/tools/explain-page.ts [sql]
 */
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
const compiled = compileList(
  organization.sqlModel,
  env.id,
  { orderBy: organization.defaultSort, offset: 0, limit: 100, count: false },
  { canRead: () => true },
);
const { sql, params } = await capturedStatement(env.id, (reader) =>
  organization.loader.page(reader, { ids: compiled.pageSql, params: compiled.pageParams.slice(1), stablePlan: true }),
);
if (process.argv[2] === 'sql') console.log(sql);
for (let i = 0; i < 3; i += 1) await bench.pool.query(sql, params);
const r = await bench.pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
await bench.stop();
process.exit(0);
