import { call } from '../support/setup.js';
import { insertOrganizations, startBenchService } from '../support/service.js';

/** Statements PostgreSQL commits per request (pg_stat_database.xact_commit delta): count-statements.ts [path-and-query] */
const pathAndQuery = process.argv[2] ?? '/api/v2/crm/organization?limit=100';
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 1_000);
const commits = async () => {
  await new Promise((r) => setTimeout(r, 11_000)); // the statistics collector reports when idle, within about 10 s
  const r = await bench.pool.query('SELECT pg_stat_force_next_flush()').catch(() => null);
  void r;
  const s = await bench.pool.query<{ n: string }>(
    'SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(s.rows[0]?.n);
};
await call(bench.service.port, env.host, env.v2, 'GET', pathAndQuery);
const before = await commits();
const N = 20;
for (let i = 0; i < N; i += 1) await call(bench.service.port, env.host, env.v2, 'GET', pathAndQuery);
const after = await commits();
// each commits() call itself commits 2 statements on the bench pool
console.log(`${pathAndQuery}: ${((after - before - 2) / N).toFixed(2)} statements per request`);
await bench.stop();
process.exit(0);
