import pg from 'pg';
import { organization } from '../../packages/domain/src/crm/organization/organization.entity.js';
import { backendTimer } from '../support/backend-cpu.js';
import { organizationBaselineSql } from '../support/baseline.js';
import { insertOrganizations, startBenchService, withCustomFieldValues } from '../support/service.js';

/**
 * Profiling aid: the organization page statement and variants of it (without each relation, columns
 * only, prepared with generic or custom plans, relations set-based, ids then rows by id) through one
 * plain pg connection: CPU per statement in Node and in its PostgreSQL backend. EACH=1 drops each
 * relation in turn; GENERIC_PLAN=1 prints the generic plan.   npx tsx bench/tools/micro-page-sql.ts
 */
const bench = await startBenchService();
const env = await bench.environment('bench');
await insertOrganizations(bench.pool, env.id, 10_000);
// CUSTOM_FIELD=1: a text custom field with a value on every organization, as crm-collection has
if (process.env.CUSTOM_FIELD) await withCustomFieldValues(bench, env);
const ids = 'SELECT t.id FROM organization t WHERE t.environment_id = $1 ORDER BY t.created_at, t.id LIMIT 100';
const sql = `WITH page AS (${ids}) SELECT ${organization.loader.selectList()} FROM page CROSS JOIN LATERAL (SELECT * FROM organization r WHERE r.id = page.id AND r.environment_id = $1 OFFSET 0) t ORDER BY t.created_at, t.id`;
const baselineSql = organizationBaselineSql();
const N = Number(process.argv[2] ?? 1000);
const client = new pg.Client({ connectionString: bench.url });
await client.connect();
const timer = await backendTimer(client, N);
const time = (label: string, q: (c: pg.Client) => Promise<unknown>) => timer(label, () => q(client));
const raw = { getTypeParser: () => (v: string) => v };
const pairs = organization.loader
  .selectList()
  .split(',\n       ')
  .map((part) => {
    const i = part.lastIndexOf(' AS "');
    return `'${part.slice(i + 5, -1)}', ${part.slice(0, i)}`;
  });
const whole = `WITH page AS (${ids}) SELECT json_build_object(${pairs.join(', ')}) AS row FROM page CROSS JOIN LATERAL (SELECT * FROM organization r WHERE r.id = page.id AND r.environment_id = $1 OFFSET 0) t ORDER BY t.created_at, t.id`;
await time('typed', (c) => c.query(sql, [env.id]));
await time('raw strings', (c) => c.query({ text: sql, values: [env.id], types: raw }));
await time('baseline sql', (c) => c.query(baselineSql, [env.id]));
const parts = organization.loader.selectList().split(',\n       ');
const build = (ps: string[]) =>
  `WITH page AS (${ids}) SELECT ${ps.join(', ')} FROM page CROSS JOIN LATERAL (SELECT * FROM organization r WHERE r.id = page.id AND r.environment_id = $1 OFFSET 0) t ORDER BY t.created_at, t.id`;
if (process.env.EACH)
  for (let k = 0; k < parts.length; k += 1) {
    const part = parts[k] as string;
    if (!part.includes('SELECT')) continue;
    const name = part.slice(part.lastIndexOf(' AS "') + 5, -1);
    const without = build(parts.map((x, j) => (j === k ? `NULL AS "${name}"` : x)));
    await time(`without ${name}`, (c) => c.query(without, [env.id]));
  }
await time('columns only', (c) => c.query(build(parts.filter((x) => !x.includes('SELECT'))), [env.id]));
await time('prepared (auto plan cache)', (c) => c.query({ name: 'p1', text: sql, values: [env.id] }));
console.log((await client.query('SELECT name, generic_plans, custom_plans FROM pg_prepared_statements')).rows);
await client.query('SET plan_cache_mode = force_custom_plan');
await time('prepared (custom plans)', (c) => c.query({ name: 'p2', text: sql, values: [env.id] }));
await client.query('RESET plan_cache_mode');
console.log(parts.filter((x) => x.includes('SELECT')).join('\n'));
const cols = parts.filter((x) => !x.includes('SELECT')).join(', ');
const setBased = `WITH page AS (${ids}),
 rows AS (SELECT r.* FROM page CROSS JOIN LATERAL (SELECT * FROM organization r WHERE r.id = page.id AND r.environment_id = $1 OFFSET 0) r),
 m7 AS (SELECT e8.organization_id AS k, json_agg(json_build_object('id', e7."id", 'name', e7."name", 'apiName', e7."api_name", 'organization', e7."organization", 'person', e7."person") ORDER BY e7.name, e7.id) AS v
          FROM organization_interest e8 JOIN interest e7 ON e7.id = e8.interest_id AND e7.environment_id = $1
         WHERE e8.environment_id = $1 AND e8.organization_id IN (SELECT id FROM page) GROUP BY 1),
 m9 AS (SELECT e9.organization_id AS k, json_agg(json_build_object('id', e9."id", 'personId', e9."person_id", 'isActive', e9."is_active", 'workFunction', e9."work_function", 'workEmail', e9."work_email", 'workPhone', e9."work_phone", 'workMobile', e9."work_mobile") ORDER BY e9.created_at, e9.id) AS v
          FROM contact_person e9 WHERE e9.environment_id = $1 AND e9.is_active AND e9.organization_id IN (SELECT id FROM page) GROUP BY 1),
 cf AS (SELECT v.entity_id AS k, json_object_agg(v.custom_field_id, v.value) AS v FROM custom_field_value v WHERE v.environment_id = $1 AND v.entity_id IN (SELECT id FROM page) GROUP BY 1)
SELECT ${cols.replaceAll('t."debtor', 't."debtor')},
 CASE WHEN e1.id IS NULL THEN NULL ELSE json_build_object('id', e1."id", 'label', e1."label", 'color', e1."color", 'type', e1."type") END AS "relationType",
 CASE WHEN e2.id IS NULL THEN NULL ELSE json_build_object('id', e2."id", 'name', e2."name") END AS "industry",
 CASE WHEN e3.id IS NULL THEN NULL ELSE json_build_object('id', e3."id", 'name', e3."name") END AS "organizationSize",
 CASE WHEN e4.id IS NULL THEN NULL ELSE json_build_object('id', e4."id", 'type', e4."type", 'line1', e4."line_1", 'line2', e4."line_2", 'postalCode', e4."postal_code", 'province', e4."province", 'locality', e4."locality", 'countryCode', e4."country_code", 'countryId', e4."country_id") END AS "visitingAddress",
 CASE WHEN e5.id IS NULL THEN NULL ELSE json_build_object('id', e5."id", 'type', e5."type", 'line1', e5."line_1", 'line2', e5."line_2", 'postalCode', e5."postal_code", 'province', e5."province", 'locality', e5."locality", 'countryCode', e5."country_code", 'countryId', e5."country_id") END AS "postalAddress",
 CASE WHEN e6.id IS NULL THEN NULL ELSE json_build_object('id', e6."id", 'personId', e6."person_id", 'name', e6."name", 'function', e6."function", 'employmentStatus', e6."employment_status", 'workEmail', e6."work_email", 'createdAt', e6."created_at", 'updatedAt', e6."updated_at") END AS "relationManager",
 COALESCE(m7.v, '[]'::json) AS interests, COALESCE(m9.v, '[]'::json) AS contacts, cf.v AS "customFields"
FROM rows t
 LEFT JOIN relation_type e1 ON e1.id = t.relation_type_id AND e1.environment_id = $1
 LEFT JOIN industry e2 ON e2.id = t.industry_id AND e2.environment_id = $1
 LEFT JOIN organization_size e3 ON e3.id = t.organization_size_id AND e3.environment_id = $1
 LEFT JOIN organization_address e4 ON e4.organization_id = t.id AND e4.environment_id = $1 AND e4.kind = 'visiting'
 LEFT JOIN organization_address e5 ON e5.organization_id = t.id AND e5.environment_id = $1 AND e5.kind = 'postal'
 LEFT JOIN employee e6 ON e6.id = t.relation_manager_id AND e6.environment_id = $1
 LEFT JOIN m7 ON m7.k = t.id LEFT JOIN m9 ON m9.k = t.id LEFT JOIN cf ON cf.k = t.id
ORDER BY t.created_at, t.id`;
await time('set-based', (c) => c.query(setBased, [env.id]));
await time('set-based prepared', (c) => c.query({ name: 'p3', text: setBased, values: [env.id] }));
const byIds = `SELECT ${organization.loader.selectList()} FROM unnest($2::text[]) WITH ORDINALITY AS page(id, n) CROSS JOIN LATERAL (SELECT * FROM organization r WHERE r.id = page.id AND r.environment_id = $1 OFFSET 0) t ORDER BY page.n`;
const directChanges = `SELECT ${organization.loader.selectList()} FROM organization t WHERE t.environment_id = $1 AND t.updated_at >= $2 ORDER BY t.updated_at DESC, t.id DESC LIMIT 100`;
const since = new Date(Date.now() - 3_600_000);
await time('changes: direct (prepared)', (c) => c.query({ name: 'p9', text: directChanges, values: [env.id, since] }));
const arrayChanges = `SELECT ${organization.loader.selectList()} FROM unnest(ARRAY(SELECT t FROM organization t WHERE t.environment_id = $1 AND t.updated_at >= $2 ORDER BY t.updated_at DESC, t.id DESC LIMIT 100)) WITH ORDINALITY AS t ORDER BY t.ordinality`;
await time('changes: rows as an array (prepared)', (c) => c.query({ name: 'p10', text: arrayChanges, values: [env.id, since] }));
const unnestChanges = `SELECT ${organization.loader.selectList()} FROM unnest(ARRAY(SELECT t.id FROM organization t WHERE t.environment_id = $1 AND t.updated_at >= $2 ORDER BY t.updated_at DESC, t.id DESC LIMIT 100)) WITH ORDINALITY AS page(id, n) CROSS JOIN LATERAL (SELECT * FROM organization r WHERE r.id = page.id AND r.environment_id = $1 OFFSET 0) t ORDER BY page.n`;
await time('changes: ids as an array (prepared)', (c) => c.query({ name: 'p11', text: unnestChanges, values: [env.id, since] }));
const direct = `SELECT ${organization.loader.selectList()} FROM organization t WHERE t.environment_id = $1 ORDER BY t.created_at, t.id LIMIT 100`;
await time('direct (prepared)', (c) => c.query({ name: 'p7', text: direct, values: [env.id] }));
const rowsArray = `SELECT ${organization.loader.selectList()} FROM unnest(ARRAY(SELECT t FROM organization t WHERE t.environment_id = $1 ORDER BY t.created_at, t.id LIMIT 100)) WITH ORDINALITY AS t ORDER BY t.ordinality`;
await time('rows as an array (prepared)', (c) => c.query({ name: 'p8', text: rowsArray, values: [env.id] }));
console.log((await client.query('SELECT name, generic_plans, custom_plans FROM pg_prepared_statements')).rows);
await time('ids alone', (c) => c.query(ids, [env.id]));
await time('ids then rows by id (prepared)', async (c) => {
  const r = await c.query<{ id: string }>(ids, [env.id]);
  return c.query({ name: 'p4', text: byIds, values: [env.id, r.rows.map((x) => x.id)] });
});
await client.query('SET plan_cache_mode = force_generic_plan');
await time('ids then rows (generic forced)', async (c) => {
  const r = await c.query<{ id: string }>(ids, [env.id]);
  return c.query({ name: 'p5', text: byIds, values: [env.id, r.rows.map((x) => x.id)] });
});
const byAny = `SELECT ${organization.loader.selectList()} FROM organization t WHERE t.environment_id = $1 AND t.id = ANY($2::text[])`;
await time('ids then rows = ANY (generic)', async (c) => {
  const r = await c.query<{ id: string }>(ids, [env.id]);
  return c.query({ name: 'p6', text: byAny, values: [env.id, r.rows.map((x) => x.id)] });
});
await client.query('RESET plan_cache_mode');
if (process.env.GENERIC_PLAN) {
  await client.query(`PREPARE gp(text) AS ${sql}`);
  await client.query('SET plan_cache_mode = force_generic_plan');
  const g = await client.query(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE gp('${env.id}')`);
  console.log(g.rows.map((r) => r['QUERY PLAN']).join('\n'));
  await client.query('RESET plan_cache_mode');
}
const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${setBased.replaceAll('$1', `'${env.id}'`)}`);
if (process.env.PLAN) console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
const a = (await client.query(sql, [env.id])).rows;
const b = (await client.query(setBased, [env.id])).rows;
console.log(
  'same rows',
  JSON.stringify(a) === JSON.stringify(b.map((r) => Object.fromEntries(Object.keys(a[0]).map((k) => [k, r[k]])))),
);
try {
  await time('one json per row', (c) => c.query(whole, [env.id]));
} catch (e) {
  console.log(String(e), whole.slice(0, 500));
}
const r = await bench.pool.query(sql, [env.id]);
console.log(r.fields.map((f) => `${f.name}:${f.dataTypeID}`).join(' '));
console.log(JSON.stringify(r.rows[0]).slice(0, 3000));
await client.end();
await bench.stop();
process.exit(0);
