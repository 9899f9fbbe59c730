import pg from 'pg';
import { createPrismaClient, scopeToEnvironment } from '@bo/db';
import { insertOrganizations, startBenchService } from '../support/service.js';

/** Sequential cost of the same raw read through pg, Prisma and the tenant-scoped Prisma client. */
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
const pool = new pg.Pool({ connectionString: bench.url, max: 2 });
const prisma = createPrismaClient(bench.url, { max: 2 });
const scoped = scopeToEnvironment(prisma, env.id);
const sql = `SELECT o.id, o.name, o.email, o.created_at AS "createdAt", o.updated_at AS "updatedAt", o.debtor_settings AS "debtorSettings",
  COALESCE((SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'line1', a.line_1)) FROM organization_address a WHERE a.organization_id = o.id AND a.environment_id = $1), '[]'::json) AS addresses
  FROM organization o WHERE o.environment_id = $1 ORDER BY o.created_at LIMIT 100`;
const small = 'SELECT id FROM organization WHERE environment_id = $1 ORDER BY created_at LIMIT 100';
const N = Number(process.argv[2] ?? 300);
async function time(label: string, f: () => Promise<unknown>) {
  for (let i = 0; i < 30; i += 1) await f();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i += 1) await f();
  const ms = (performance.now() - t0) / N;
  const cpu = process.cpuUsage(c0);
  console.log(
    `${label.padEnd(40)} wall ${ms.toFixed(2)} ms  node cpu ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms per query`,
  );
}
await time('pg pool, 100 rows', () => pool.query(sql, [env.id]));
await time('prisma $queryRawUnsafe, 100 rows', () => prisma.$queryRawUnsafe(sql, env.id));
await time('scoped $queryRawUnsafe, 100 rows', () => scoped.$queryRawUnsafe(sql, env.id));
await time('pg pool, 100 ids', () => pool.query(small, [env.id]));
await time('prisma $queryRawUnsafe, 100 ids', () => prisma.$queryRawUnsafe(small, env.id));
await time('scoped $queryRawUnsafe, 100 ids', () => scoped.$queryRawUnsafe(small, env.id));
await time('pg pool, SELECT 1', () => pool.query('SELECT 1'));
await time('prisma findUnique environment', () => prisma.environment.findUnique({ where: { name: 'bench' } }));
await time('prisma apiToken+user', () => prisma.apiToken.findUnique({ where: { key: 'x' }, include: { user: true } }));
await time('scoped employee.findMany', () => scoped.employee.findMany({ where: { id: { in: ['a'] } } }));
await time('unscoped employee.findMany', () => prisma.employee.findMany({ where: { id: { in: ['a'] }, environmentId: env.id } }));
await pool.end();
await prisma.$disconnect();
await bench.stop();
process.exit(0);
