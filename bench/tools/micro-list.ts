import { ALL_RIGHTS, createCaller, systemClock } from '@bo/domain';
import { organizationV2 } from '../../apps/api-v2/src/resources/crm/organization.js';
import { insertOrganizations, startBenchService, withCustomFieldValues } from '../support/service.js';

/**
 * Profiling aid: the stages of a v2 organization list page in process, one at a time (the tRPC
 * call, the v2 mapping, JSON, the loader, the same statement through plain pg), CPU per page.
 * PROFILE=x.cpuprofile also profiles the tRPC call in a loop.   [CUSTOM_FIELD=1] N=300 npx tsx bench/tools/micro-list.ts
 */
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
// CUSTOM_FIELD=1: a text custom field with a value on every organization, as crm-collection has
if (process.env.CUSTOM_FIELD) await withCustomFieldValues(bench, env);
const u = await bench.pool.query('SELECT id FROM user_account WHERE environment_id=$1', [env.id]);
const caller = createCaller({
  prisma: bench.service.database.prisma,
  clock: systemClock,
  principal: {
    kind: 'user',
    environmentId: env.id,
    environmentName: 'bench',
    userId: u.rows[0].id,
    tokenId: null,
    rights: ALL_RIGHTS,
  },
});
const list = () => caller.crm.organization.list({ orderBy: [], offset: 0, limit: 100, count: false });
const N = Number(process.env.N ?? 300);
async function time(label: string, f: () => Promise<unknown> | unknown) {
  for (let i = 0; i < 50; i++) await f();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await f();
  const c = process.cpuUsage(c0);
  console.log(
    label.padEnd(40),
    ((performance.now() - t0) / N).toFixed(3),
    'ms wall',
    ((c.user + c.system) / 1000 / N).toFixed(3),
    'ms cpu',
  );
}
const r = await list();
if (process.env.PROFILE) {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const items = (await list()).items;
  void items;
  for (let i = 0; i < 1500; i++) await list();
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.env.PROFILE, JSON.stringify(profile));
}
await time('caller list', list);
await time('v2 read of 100', () => r.items.map((x) => organizationV2.read(x)));
const mapped = r.items.map((x) => organizationV2.read(x));
await time('stringify', () => JSON.stringify({ data: mapped, errors: null, debug: null }));
console.log('bytes', JSON.stringify({ data: mapped }).length);
const { organization } = await import('../../packages/domain/src/crm/organization/organization.entity.js');
await time('zod output parse', () => r.items.map((i) => organization.schema.parse(i)));
const { tenantSql } = await import('@bo/db');
const sql = tenantSql(bench.service.database.prisma, env.id);
const ids = `SELECT t.id FROM organization t WHERE t.environment_id = $1 ORDER BY t.created_at, t.id LIMIT 100`;
await time('loader page', () => organization.loader.page(sql, { ids, params: [], stablePlan: true }));
await time('plain pg same sql', () =>
  bench.pool.query(
    `WITH page AS (${ids}) SELECT ${organization.loader.selectList()} FROM page CROSS JOIN LATERAL (SELECT * FROM organization r WHERE r.id = page.id AND r.environment_id = $1 OFFSET 0) t ORDER BY t.created_at, t.id`,
    [env.id],
  ),
);
await bench.stop();
process.exit(0);
