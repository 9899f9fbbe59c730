import { compileList } from '@bo/db';
import { organization } from '@bo/domain/crm/organization/organization.entity';
import pg from 'pg';
import { capturedStatement } from '../../tests/support/captured-statement.js';
import { backendTimer } from '../support/backend-cpu.js';
import { insertOrganizations, startBenchService } from '../support/service.js';

/**
 * Profiling aid: the unfiltered organization page statement exactly as the loader sends it (the
 * first page, then a page at offset 100), prepared on one connection: which plans PostgreSQL keeps
 * for it (generic or custom, pg_prepared_statements) and its CPU per execution, then the same with
 * the generic plan forced.   npx tsx bench/tools/plan-choice.ts [N]
 */
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
const statement = (offset: number) => {
  const compiled = compileList(
    organization.sqlModel,
    env.id,
    { orderBy: organization.defaultSort, offset, limit: 100, count: false },
    { canRead: () => true },
  );
  return capturedStatement(env.id, (reader) =>
    organization.loader.page(reader, {
      ids: compiled.pageSql,
      params: compiled.pageParams.slice(1),
      stablePlan: true,
    }),
  );
};
const N = Number(process.argv[2] ?? 500);
const client = new pg.Client({ connectionString: bench.url });
await client.connect();
const timer = await backendTimer(client, N);
const pages: [string, { sql: string; params: unknown[] }][] = [
  ['first page', await statement(0)],
  ['offset 100', await statement(100)],
];
for (const mode of ['auto', 'force_generic_plan']) {
  await client.query(`SET plan_cache_mode = ${mode}`);
  for (const [label, { sql, params }] of pages) {
    const name = `${label} ${mode}`;
    await timer(name.padEnd(32), () => client.query({ name, text: sql, values: params }));
  }
}
console.log((await client.query('SELECT name, generic_plans, custom_plans FROM pg_prepared_statements')).rows);
await client.end();
await bench.stop();
process.exit(0);
