import { type Condition, compileList, LITERAL_LIMIT_UP_TO, tenantSql } from '@bo/db';
import { declaredEntities } from '@bo/domain';
import type { AnyField } from '@bo/domain/shared/entity/fields';
import { organization } from '@bo/domain/crm/organization/organization.entity';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedStatements } from './support/captured-statement.js';
import { type Envelope, post } from './support/crm.js';
import { createTestDatabase } from './support/database.js';
import { type LoggedStatement, type StatementLog, startStatementLog } from './support/pg-statement-log.js';
import { ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * The read path of issue 15: what a list request costs, and what makes it cheap without
 * weakening anything. Two service processes share one database here, as two hosts would.
 */
let a: TestService;
let b: TestService;
let crmA: ApiClient;
let crmB: ApiClient;
/** a third process whose statements are read off the wire (started by the first test that needs it) */
let wire: { log: StatementLog; service: TestService } | null = null;

async function wireService(): Promise<{ log: StatementLog; service: TestService }> {
  if (!wire) {
    const db = await createTestDatabase();
    const log = await startStatementLog(db.url);
    // the service's stop drops the database
    wire = { log, service: await startTestService({ db: { ...db, url: log.url } }) };
  }
  return wire;
}

/** the statements one request sends (the wire settles before and after) */
async function statementsOf(api: ApiClient, path: string): Promise<LoggedStatement[]> {
  const { log } = await wireService();
  await new Promise((r) => setTimeout(r, 50));
  log.clear();
  expect((await api.v2('GET', path)).status).toBe(200);
  await new Promise((r) => setTimeout(r, 50));
  return [...log.statements];
}

/** An environment's id, with 3,000 organizations (named `${prefix} n`, one a second apart) loaded and analyzed. */
async function withOrganizations(environment: string, prefix: string): Promise<string> {
  const [row] = await a.db.query<{ id: string }>('SELECT id FROM environment WHERE name = $1', [environment]);
  const environmentId = row?.id as string;
  await a.db.query(
    `INSERT INTO organization (id, environment_id, name, created_at, updated_at)
     SELECT 'organization:' || lower($2) || g, $1, $2 || ' ' || g, now() - g * interval '1 second', now()
       FROM generate_series(1, 3000) g`,
    [environmentId, prefix],
  );
  await a.db.query('ANALYZE organization');
  return environmentId;
}

beforeAll(async () => {
  a = await startTestService({ rateLimitPerMinute: 400 });
  b = await startTestService({ db: a.db, rateLimitPerMinute: 400 });
  crmA = await a.environment('reads');
  crmB = new ApiClient(b.service.port, 'reads.localhost', crmA.token);
});
afterAll(async () => {
  await wire?.service.stop();
  await wire?.log.close();
  await b?.stopService();
  await a?.stop();
});

describe('a list page in the database', () => {
  it('a list page reads its rows by primary key, never by scanning the table (the plans of 100 of 3,000 rows, in one statement or by ids)', async () => {
    const environmentId = await withOrganizations('reads', 'Plan');
    const planOf = async (statement: { sql: string; params: unknown[] }) =>
      (await a.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.sql}`, statement.params))
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    const compiled = (where?: Condition) =>
      compileList(
        organization.sqlModel,
        environmentId,
        { ...(where ? { where } : {}), orderBy: organization.defaultSort, offset: 0, limit: 100, count: false },
        { canRead: () => true },
      );
    // the loader's own statements, captured as they would run: the unfiltered page is one statement
    const unfiltered = compiled();
    const [page] = await capturedStatements(environmentId, (reader) =>
      organization.loader.page(reader, {
        ids: unfiltered.pageSql,
        params: unfiltered.pageParams.slice(1),
        stablePlan: true,
      }),
    );
    const pagePlan = await planOf(page as { sql: string; params: unknown[] });
    expect(pagePlan).not.toMatch(/Seq Scan on organization\b/);
    expect(pagePlan).toMatch(/Index (Only )?Scan using organization_pkey/);
    // a filtered page: its ids, then its rows by id in that order
    const filtered = compiled({ path: 'name', op: 'eq', value: 'Plan*' });
    const ids = (await a.db.query<{ id: string }>(filtered.pageSql, filtered.pageParams)).map((r) => r.id);
    expect(ids).toHaveLength(100);
    const statements = await capturedStatements(
      environmentId,
      (reader) =>
        organization.loader.page(reader, {
          ids: filtered.pageSql,
          params: filtered.pageParams.slice(1),
        }),
      (sql) => (sql === filtered.pageSql ? ids.map((id) => ({ id })) : []),
    );
    expect(statements).toHaveLength(2);
    const rowsPlan = await planOf(statements[1] as { sql: string; params: unknown[] });
    expect(rowsPlan).not.toMatch(/Seq Scan on organization\b/);
    expect(rowsPlan).toMatch(/Index (Only )?Scan using organization_pkey/);
    const res = await crmA.v2('GET', '/crm/organization?limit=100&q[name]=Plan*');
    expect((res.body as Envelope<{ id: string }[]>).data.map((o) => o.id)).toEqual(ids);
  });
  it('a page answered as read is the page the full output check answers, key for key and in order, custom fields with their options included', async () => {
    const api = await a.environment('as-read');
    const colour = await post(api, '/crm/organizationcustomfields', { name: 'colour', label: 'Colour', type: 'dropdown' });
    await post(api, '/customfields/option', { customfield_id: colour, label: 'Red', position: 1 });
    await post(api, '/customfields/option', { customfield_id: colour, label: 'Blue', position: 2 });
    await post(api, '/crm/organizationcustomfields', { name: 'tier', label: 'Tier', type: 'text' });
    for (const [i, value] of ['Red', 'Blue', null].entries()) {
      await post(api, '/crm/organization', {
        name: `As read ${i}`,
        visiting_address: { line_1: `Street ${i}`, locality: 'Utrecht', country_code: 'NL' },
        custom_fields: [{ name: 'tier', value: `t${i}` }, ...(value ? [{ name: 'colour', value }] : [])],
      });
    }
    const [env] = await a.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'as-read'`);
    const environmentId = env?.id as string;
    const page = compileList(organization.sqlModel, environmentId, {
      orderBy: organization.defaultSort,
      offset: 0,
      limit: 100,
      count: false,
    });
    const rows = await organization.loader.page(tenantSql(a.service.database.prisma, environmentId), {
      ids: page.pageSql,
      params: page.pageParams.slice(1),
      stablePlan: true,
      firstPageFrom: page.firstPageFrom,
    });
    expect(rows).toHaveLength(3);
    expect((rows[0] as { customFields: { displayValue: string | null }[] }).customFields.map((f) => f.displayValue)).toEqual([
      'Red',
      't0',
    ]);
    expect(JSON.stringify(rows)).toBe(JSON.stringify(rows.map((r) => organization.schema.parse(r))));
  });
});

describe('a name-prefix search counted in the database', () => {
  it('the count of a name-prefix search (metadata=count) is read off the index alone, an index-only scan, and counts every match', async () => {
    const api = await a.environment('prefixcount');
    const environmentId = await withOrganizations('prefixcount', 'Count');
    await a.db.query('VACUUM organization');
    const compiled = compileList(
      organization.sqlModel,
      environmentId,
      {
        where: { path: 'name', op: 'eq', value: 'count 1*' },
        orderBy: organization.defaultSort,
        offset: 0,
        limit: 100,
        count: true,
      },
      { canRead: () => true },
    );
    const plan = (await a.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${compiled.countSql}`, compiled.countParams))
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toMatch(/Index Only Scan using organization_environment_id_lower_name_idx/);
    // every prefix index holds its column, so that each such count can be answered so
    const defs = await a.db.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE indexdef LIKE '%text_pattern_ops%' ORDER BY indexname",
    );
    expect(defs.length).toBeGreaterThanOrEqual(3);
    for (const { indexdef } of defs) expect(indexdef).toMatch(/INCLUDE \((name|full_name|family_name), id\)/);
    // Count 1, 10-19, 100-199, 1000-1999
    const res = await api.v2('GET', '/crm/organization?q[name]=Count%201*&metadata=count&limit=5');
    expect(res.status, res.text).toBe(200);
    expect((res.body as { metadata?: { count?: number } }).metadata?.count).toBe(1111);
  });
});

describe('a prefix search as a range of its index', () => {
  it('a prefix search answers exactly the texts that start with it, whatever their case, script or characters (the range of a prefix is its texts, past U+10FFFF and the surrogates too), with every match counted', async () => {
    const api = await a.environment('prefixrange');
    const environmentId = await withOrganizations('prefixrange', 'Range');
    const names = [
      'Émile Zola',
      'émilie',
      'EMILE',
      'Straße 1',
      'STRASSE 2',
      '50% off',
      '50x',
      '5_0 under',
      'back\\slash',
      'z',
      'Zz',
      'z{',
      'a\u{10FFFF}',
      'a\u{10FFFF}\u{10FFFF}b',
      'b',
      '\uD7FFx',
      '\uE000y',
      '日本語',
      '日本',
      '日',
    ];
    for (const name of names) await post(api, '/crm/organization', { name });
    const prefixes = [
      'Range 1',
      'range 29',
      'RANGE',
      'émi',
      'É',
      'straße',
      'STRA',
      '50%',
      '5_',
      'back\\',
      'z',
      'Z',
      'a\u{10FFFF}',
      '\uD7FF',
      '日本',
      '日',
      'nothing',
    ];
    for (const prefix of prefixes) {
      const expected = await a.db.query<{ name: string }>(
        'SELECT name FROM organization WHERE environment_id = $1 AND starts_with(lower(name), lower($2)) ORDER BY name, id',
        [environmentId, prefix],
      );
      const res = await api.v2(
        'GET',
        `/crm/organization?q[name]=${encodeURIComponent(`${prefix}*`)}&sort=name&limit=100&metadata=count`,
      );
      expect(res.status, res.text).toBe(200);
      const body = res.body as Envelope<{ name: string }[]> & { metadata?: { count?: number } };
      expect(
        body.data.map((o) => o.name),
        prefix,
      ).toEqual(expected.slice(0, 100).map((r) => r.name));
      expect(body.metadata?.count, prefix).toBe(expected.length);
    }
    // the successor the range ends before: the prefix's last character that is not U+10FFFF, one code point on
    const successors = await a.db.query<{ s: string | null }>(
      `SELECT text_prefix_successor(p) AS s FROM unnest($1::text[]) WITH ORDINALITY AS x(p, n) ORDER BY n`,
      [['acme', 'az', 'a\u{10FFFF}', '\uD7FF', 'é', '', '\u{10FFFF}']],
    );
    expect(successors.map((r) => r.s)).toEqual(['acmf', 'a{', 'b', '\uE000', 'ê', null, null]);
  });

  it('a first page of a prefix search, its count with it, is one statement whose generic plan PostgreSQL keeps for narrow, wide and empty prefixes alike: the prefix index read as a range, the name from the index, each row by its key', async () => {
    await a.environment('prefixplan');
    const environmentId = await withOrganizations('prefixplan', 'Prefix');
    await a.db.query('VACUUM organization');
    const page = (prefix: string) => {
      const compiled = compileList(organization.sqlModel, environmentId, {
        where: { and: [{ path: 'name', op: 'eq', value: `${prefix}*` }] },
        orderBy: [{ path: 'name', dir: 'asc' }],
        offset: 0,
        limit: 100,
        count: true,
      });
      const hidden = compiled.hidden();
      if (!hidden) throw new Error('a first page has its hidden form');
      return capturedStatements(environmentId, (reader) =>
        organization.loader.pageJson(
          reader,
          {
            ids: hidden.pageSql,
            params: compiled.pageParams.slice(1),
            stablePlan: true,
            count: { sql: hidden.countSql, counted: () => {} },
          },
          'row_to_json(t)::text',
        ),
      ).then((statements) => statements[0] as { sql: string; params: unknown[] });
    };
    expect(
      compileList(organization.sqlModel, environmentId, { orderBy: [], offset: 100, limit: 100, count: true }).hidden(),
    ).toBeNull();
    const client = new pg.Client({ connectionString: a.db.url });
    await client.connect();
    try {
      const runs: [string, number, number][] = [
        ['prefix 1', 100, 1111],
        ['prefix', 100, 3000],
        ['nothing', 0, 0],
        ['Prefix 29', 100, 111],
      ];
      for (let i = 0; i < 8; i += 1) {
        const [prefix, rows, count] = runs[i % runs.length] as [string, number, number];
        const statement = await page(prefix);
        const r = await client.query<{ page_count__: number }>({
          name: 'prefix_page',
          text: statement.sql,
          values: statement.params,
        });
        expect(r.rows.length, prefix).toBe(rows);
        if (rows > 0) expect(r.rows[0]?.page_count__, prefix).toBe(count);
      }
      const plans = await client.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'prefix_page'`,
      );
      expect(plans.rows[0]).toEqual({ generic_plans: '3', custom_plans: '5' });
      const plan = (
        await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE prefix_page('${environmentId}', 'prefix 1')`)
      ).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      // the count and the page's ids, each off the index alone (it holds the name and the id)
      expect(plan.match(/Index Only Scan using organization_environment_id_lower_name_idx/g)).toHaveLength(2);
      expect(plan).toMatch(/organization_pkey/);
      expect(plan).not.toMatch(/Seq Scan on organization\b/);
    } finally {
      await client.end();
    }
  });
});

describe('one plan for every environment only where no value can change it', () => {
  it("every entity's own order is read off an index that leads with the environment", async () => {
    const indexes = await a.db.query<{ table: string; columns: string[] }>(
      `SELECT c.relname AS table, array_agg(a.attname::text ORDER BY k.n) AS columns
         FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY k(attnum, n)
         LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
        GROUP BY i.indexrelid, c.relname`,
    );
    const entities = declaredEntities();
    expect(entities.length).toBeGreaterThan(100);
    const unserved: string[] = [];
    let checked = 0;
    for (const entity of entities) {
      if (!entity.indexedOrder) continue;
      let orderSql: string;
      try {
        orderSql = compileList(entity.sqlModel, 'environment', {
          orderBy: entity.defaultSort,
          offset: 0,
          limit: 100,
          count: false,
        }).orderSql;
      } catch {
        // a stand-in whose own order names no field of it: it is embedded, never listed
        continue;
      }
      checked += 1;
      const columns = [...orderSql.matchAll(/^t\."(\w+)"|, t\."(\w+)"/g)].map((m) => m[1] ?? m[2]);
      const served = indexes.some(
        (i) => i.table === entity.table && i.columns[0] === 'environment_id' && columns.every((c, k) => i.columns[k + 1] === c),
      );
      if (!served) unserved.push(`${entity.type}: ${entity.table} (${orderSql})`);
    }
    expect(checked).toBeGreaterThan(80);
    expect(unserved).toEqual([]);
  });

  it("every relation a page embeds is probed, row by row, on an index that leads with the environment and the column pointing at the row (its two conditions), whatever the table's statistics say", async () => {
    // with only one of the two conditions indexed, an empty or never-analyzed link table tied the
    // planner between its environment index and its key: it scanned the environment's links for every row
    const indexes = await a.db.query<{ table: string; columns: string[]; unique: boolean }>(
      `SELECT c.relname AS table, array_agg(a.attname::text ORDER BY k.n) AS columns, bool_or(i.indisunique) AS unique
         FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY k(attnum, n)
         LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
        GROUP BY i.indexrelid, c.relname`,
    );
    const unserved: string[] = [];
    let checked = 0;
    for (const entity of declaredEntities()) {
      for (const [name, field] of Object.entries(entity.fields as Record<string, AnyField>)) {
        if (field.kind !== 'many' && field.kind !== 'one') continue;
        const table = field.kind === 'many' && field.through ? field.through.table : field.target().table;
        const leading = ['environment_id', field.remote].sort().join(',');
        checked += 1;
        // a row of a kind (an address) may be found by a unique key that leads with the column: one row, always that index
        const served = indexes.some(
          (i) =>
            i.table === table &&
            (i.columns.slice(0, 2).sort().join(',') === leading ||
              (field.kind === 'one' && i.unique && i.columns[0] === field.remote)),
        );
        if (!served) {
          unserved.push(`${entity.type}.${name}: ${table} (environment_id, ${field.remote})`);
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(unserved).toEqual([]);
  });

  it("a first page (the entity's own order, or a change-tracking range) is one statement straight off its index, its values hidden from the planner: PostgreSQL keeps its generic plan in a small environment as in a large one and for wide and empty ranges alike; a deeper page keeps limit and offset as parameters", async () => {
    const api = await a.environment('generic');
    const environmentId = await withOrganizations('generic', 'Generic');
    // an environment with fewer rows than the page's LIMIT: planned for its values, its first page was
    // estimated cheaper than the generic plan and planned again at every execution
    await a.environment('generic-small');
    const [small] = await a.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'generic-small'`);
    const smallId = small?.id as string;
    await a.db.query(
      `INSERT INTO organization (id, environment_id, name, created_at, updated_at)
       SELECT 'organization:generic-small' || g, $1, 'Small ' || g, now() - g * interval '1 second', now() FROM generate_series(1, 3) g`,
      [smallId],
    );
    await a.db.query('ANALYZE organization');
    const compiled = (envId: string, offset: number, limit: number, where?: Condition, orderBy = organization.defaultSort) =>
      compileList(organization.sqlModel, envId, { ...(where ? { where } : {}), orderBy, offset, limit, count: false });
    const first = compiled(environmentId, 0, 100);
    expect(first.pageSql).toMatch(/ LIMIT 100$/);
    expect(first.firstPageFrom).toMatch(/^FROM "organization" t WHERE t\.environment_id = \(SELECT \$1::text\) .* LIMIT 100$/);
    expect(first.pageParams).toEqual([environmentId]);
    expect(compiled(environmentId, 100, 100).pageSql).toMatch(/ LIMIT \$2 OFFSET \$3$/);
    expect(compiled(environmentId, 100, 100).firstPageFrom).toBeNull();
    expect(compiled(environmentId, 0, LITERAL_LIMIT_UP_TO + 1).firstPageFrom).toBeNull();
    const changes = (envId: string, since: string) =>
      compiled(envId, 0, 100, { path: 'updatedAt', op: 'ge', value: since }, [{ path: 'updatedAt', dir: 'desc' }]);
    // the statement as the loader sends it: the select list straight over the page, no second lookup by id
    const statementOf = async (envId: string, page: ReturnType<typeof compiled>) => {
      const statements = await capturedStatements(envId, (reader) =>
        organization.loader.page(reader, {
          ids: page.pageSql,
          params: page.pageParams.slice(1),
          stablePlan: true,
          firstPageFrom: page.firstPageFrom,
        }),
      );
      expect(statements).toHaveLength(1);
      expect(statements[0]?.sql).toContain(' FROM "organization" t WHERE t.environment_id = (SELECT $1::text) AND ');
      expect(statements[0]?.sql).not.toContain('unnest');
      return statements[0] as { sql: string; params: unknown[] };
    };
    const client = new pg.Client({ connectionString: a.db.url });
    await client.connect();
    const plansOf = async (name: string) =>
      (
        await client.query<{ generic_plans: string; custom_plans: string }>(
          'SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1',
          [name],
        )
      ).rows[0];
    try {
      let ids: string[] = [];
      for (const [envId, rows] of [
        [environmentId, 100],
        [smallId, 3],
      ] as const) {
        const page = await statementOf(envId, compiled(envId, 0, 100));
        const name = `first_page_${rows}`;
        for (let i = 0; i < 8; i += 1) {
          const r = await client.query<{ id: string }>({ name, text: page.sql, values: page.params });
          expect(r.rows).toHaveLength(rows);
          if (rows === 100) ids = r.rows.map((row) => row.id);
        }
        // PostgreSQL plans the first five executions for their values, then keeps the generic plan if it is no dearer
        expect(await plansOf(name)).toEqual({ generic_plans: '3', custom_plans: '5' });
        // a change-tracking page: one plan for ranges of 3,000 rows and of none alike
        const name2 = `changes_${rows}`;
        for (let i = 0; i < 8; i += 1) {
          const statement = await statementOf(
            envId,
            changes(envId, i % 2 === 0 ? '2000-01-01T00:00:00Z' : '2999-01-01T00:00:00Z'),
          );
          const r = await client.query<{ id: string }>({ name: name2, text: statement.sql, values: statement.params });
          expect(r.rows.length).toBe(i % 2 === 0 ? rows : 0);
        }
        expect(await plansOf(name2)).toEqual({ generic_plans: '3', custom_plans: '5' });
      }
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE first_page_100('${environmentId}')`)).rows.map(
        (r) => r['QUERY PLAN'],
      );
      // walked in order off (environment_id, created_at, id), stopped by the LIMIT: no scan of the table,
      // and no lookup of each row by its primary key
      expect(plan.join('\n')).toMatch(/Index Scan using organization_environment_id_created_at_id_idx/);
      expect(plan.join('\n')).not.toMatch(/Seq Scan on organization\b|organization_pkey/);
      const expected = (
        await a.db.query<{ id: string }>(
          'SELECT id FROM organization WHERE environment_id = $1 ORDER BY created_at, id LIMIT 200',
          [environmentId],
        )
      ).map((r) => r.id);
      expect(ids).toEqual(expected.slice(0, 100));
      // the same pages through v2: the first page, and the next one with its offset as a parameter
      const pageIds = async (path: string) =>
        ((await api.v2('GET', path)).body as Envelope<{ id: string }[]>).data.map((o) => o.id);
      expect(await pageIds('/crm/organization?limit=100')).toEqual(expected.slice(0, 100));
      expect(await pageIds('/crm/organization?limit=100&offset=100')).toEqual(expected.slice(100, 200));
    } finally {
      await client.end();
    }
  });

  it("an unfiltered page in the entity's own order, a change-tracking page (each one statement straight off its index) and the token lookup are prepared; a first page of a prefix on a prefix-indexed column is one prepared statement with its count; another filtered or sorted page's ids are planned for its values (its count, when asked, in the same statement), its rows read by id through a prepared statement", async () => {
    const { log, service } = await wireService();
    const api = await service.environment('planned');
    await post(api, '/crm/organization', { name: 'Planned 1', email: 'planned1@example.com' });
    await post(api, '/crm/organization', { name: 'Planned 2', email: 'planned2@example.com' });
    // the token was looked up (then remembered) for that request
    const token = log.statements.filter((x) => x.sql.includes('FROM api_token t JOIN user_account'));
    expect(token.length).toBeGreaterThan(0);
    for (const t of token) expect(t.prepared).not.toBe('');
    const unfiltered = (await statementsOf(api, '/crm/organization?limit=10')).filter((x) => x.sql.includes('"organization"'));
    expect(unfiltered).toHaveLength(1);
    expect(unfiltered[0]?.sql).toMatch(/ FROM "organization" t WHERE t\.environment_id = \(SELECT \$1::text\) .* LIMIT 10$/s);
    expect(unfiltered[0]?.sql).not.toContain('unnest');
    expect(unfiltered[0]?.prepared).not.toBe('');
    // a deeper page: its ids (limit and offset as parameters) as an array, each row by its primary key
    const deeper = (await statementsOf(api, '/crm/organization?limit=10&offset=1')).filter((x) =>
      x.sql.includes('"organization"'),
    );
    expect(deeper).toHaveLength(1);
    expect(deeper[0]?.sql).toContain('unnest(ARRAY(SELECT t."id" AS id FROM "organization" t ');
    expect(deeper[0]?.prepared).not.toBe('');
    // change tracking: a range on updated_at sorted by it, read off (environment_id, updated_at, id)
    // whatever the values, is one prepared statement too
    const changes = (await statementsOf(api, '/crm/organization?limit=10&q[updated_at][ge]=2020-01-01&sort=-updated_at')).filter(
      (x) => x.sql.includes('"organization"'),
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]?.sql).toMatch(
      / FROM "organization" t WHERE t\.environment_id = \(SELECT \$1::text\) AND \(?t\."updated_at" >= \(SELECT \$2::timestamptz\)\)? ORDER BY t\."updated_at" DESC, t\."id" DESC LIMIT 10$/s,
    );
    expect(changes[0]?.prepared).not.toBe('');
    // a prefix of a prefix-indexed column, with its count: one prepared statement, the count a column of it
    const prefixed = (await statementsOf(api, '/crm/organization?limit=10&q[name]=Planned*&metadata=count')).filter((x) =>
      x.sql.includes('"organization"'),
    );
    expect(prefixed).toHaveLength(1);
    expect(prefixed[0]?.sql).toContain('unnest(ARRAY(SELECT t."id" AS id FROM "organization" t ');
    expect(prefixed[0]?.sql).toContain('lower(t."name") ~>=~ lower((SELECT $2::text))');
    expect(prefixed[0]?.prepared).not.toBe('');
    // the same range sorted by another key, a range on a column without such an index, a prefix of a
    // column without a prefix index: their ids are planned for their values
    const indexed = await a.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_indexes WHERE tablename = 'organization' AND indexdef LIKE '%(environment_id, email, id)%'`,
    );
    expect(indexed[0]?.n).toBe(0);
    for (const path of [
      '/crm/organization?limit=10&q[email]=planned*',
      '/crm/organization?limit=10&sort=-name',
      '/crm/organization?limit=10&q[updated_at][ge]=2020-01-01&sort=-name',
      '/crm/organization?limit=10&q[email][ge]=a&sort=email',
    ]) {
      const statements = await statementsOf(api, path);
      const ids = statements.filter((x) => /^\s*SELECT t\."id" AS id FROM "organization" t /.test(x.sql));
      const rows = statements.filter((x) => x.sql.includes('FROM "organization" r'));
      expect(ids, path).toHaveLength(1);
      expect(ids[0]?.prepared, path).toBe('');
      expect(rows, path).toHaveLength(1);
      expect(rows[0]?.sql, path).toContain('WITH ORDINALITY');
      expect(rows[0]?.prepared, path).not.toBe('');
    }
    // such a page with its count: the count comes in the statement of the ids (one statement and one
    // round trip less), the rows by id as before; the count is every match, the page its limit
    const counted = await statementsOf(api, '/crm/organization?limit=1&q[email]=planned*&metadata=count');
    const idsAndCount = counted.filter((x) => x.sql.includes('SELECT count(*)::int AS count FROM "organization" t'));
    expect(idsAndCount).toHaveLength(1);
    expect(idsAndCount[0]?.sql).toMatch(
      /^SELECT \(SELECT count\(\*\)::int AS count FROM "organization" t .*\) AS count, array_to_json\(ARRAY\(SELECT t\."id" AS id FROM "organization" t /s,
    );
    expect(idsAndCount[0]?.prepared).toBe('');
    expect(counted.filter((x) => x.sql.includes('FROM "organization" r'))).toHaveLength(1);
    const page = await api.v2('GET', '/crm/organization?limit=1&q[name]=Planned*&metadata=count&sort=name');
    expect(page.status, page.text).toBe(200);
    expect(page.body).toMatchObject({ data: [{ name: 'Planned 1' }], metadata: { count: 2 } });
    const none = await api.v2('GET', '/crm/organization?limit=1&q[name]=Nothing*&metadata=count');
    expect(none.body).toMatchObject({ data: [], metadata: { count: 0 } });
    // the rows come back in the order the ids were planned in
    const names = async (path: string) =>
      ((await api.v2('GET', path)).body as Envelope<{ name: string }[]>).data.map((o) => o.name);
    expect(await names('/crm/organization?q[name]=Planned*&sort=-name')).toEqual(['Planned 2', 'Planned 1']);
    expect(await names('/crm/organization?q[name]=Planned*&sort=name')).toEqual(['Planned 1', 'Planned 2']);
  });
});

describe('what a process remembers, every process forgets at once', () => {
  it('a custom field defined through one process shows in the next read of another', async () => {
    const id = await post(crmA, '/crm/organization', { name: 'Remembered BV' });
    // process b reads (and remembers) the definitions: none yet
    const before = await crmB.v2('GET', `/crm/organization/${id}`);
    expect((before.body as Envelope<{ custom_fields: unknown[] }>).data.custom_fields).toEqual([]);
    await post(crmA, '/crm/organizationcustomfields', { name: 'tier', label: 'Tier', type: 'text' });
    const after = await crmB.v2('GET', `/crm/organization?q[id]=${id}`);
    expect((after.body as Envelope<{ custom_fields: { name: string }[] }[]>).data[0]?.custom_fields.map((f) => f.name)).toEqual([
      'tier',
    ]);
  });

  it("a user's rights taken away by another process count at the next request of every process", async () => {
    const reader = await a.user('reads', 'narrowed@reads.test', { crm: 'read' });
    const readerB = new ApiClient(b.service.port, 'reads.localhost', reader.token);
    expect((await reader.v2('GET', '/crm/organization')).status).toBe(200);
    expect((await readerB.v2('GET', '/crm/organization')).status).toBe(200);
    await a.db.query(`UPDATE user_account SET rights = '{}'::jsonb WHERE email = 'narrowed@reads.test'`);
    expect((await reader.v2('GET', '/crm/organization')).status).toBe(403);
    expect((await readerB.v2('GET', '/crm/organization')).status).toBe(403);
  });
});

describe('a token remembered by every process', () => {
  it('a deactivated token is refused at the next request of every process, and a deleted one too', async () => {
    const holder = await a.user('reads', 'holder@reads.test', { crm: 'read' });
    const holderB = new ApiClient(b.service.port, 'reads.localhost', holder.token);
    // both processes remember the token now
    expect((await holder.v2('GET', '/crm/organization?limit=1')).status).toBe(200);
    expect((await holderB.v2('GET', '/crm/organization?limit=1')).status).toBe(200);
    const key = holder.token?.key as string;
    await a.db.query('UPDATE api_token SET deactivated_at = now() WHERE key = $1', [key]);
    expect((await holder.v2('GET', '/crm/organization?limit=1')).status).toBe(401);
    expect((await holderB.v2('GET', '/crm/organization?limit=1')).status).toBe(401);
    await a.db.query('UPDATE api_token SET deactivated_at = NULL WHERE key = $1', [key]);
    expect((await holderB.v2('GET', '/crm/organization?limit=1')).status).toBe(200);
    await a.db.query('DELETE FROM api_token WHERE key = $1', [key]);
    expect((await holder.v2('GET', '/crm/organization?limit=1')).status).toBe(401);
    expect((await holderB.v2('GET', '/crm/organization?limit=1')).status).toBe(401);
  });

  it('a warm list request does not read its token again: the page is its one statement', async () => {
    const { service } = await wireService();
    const api = await service.environment('warm');
    for (let i = 0; i < 3; i += 1) expect((await api.v2('GET', '/crm/organization?limit=10')).status).toBe(200);
    // (what the process reads for itself now and then, maintenance windows or custom-field
    // definitions past their second, may fall in the same moment: only the request's own count)
    const sent = (await statementsOf(api, '/crm/organization?limit=10')).map((x) => x.sql);
    expect(sent.filter((x) => x.includes('FROM api_token'))).toHaveLength(0);
    expect(sent.filter((x) => x.includes(' FROM "organization" t WHERE t.environment_id = (SELECT $1::text)'))).toHaveLength(1);
  });
});

describe('one budget across processes', () => {
  it('requests counted in blocks never pass the limit, whichever process answers (400 a minute, 460 sent to two processes)', async () => {
    const spender = await a.user('reads', 'spender@reads.test', { crm: 'read' });
    const clients = [spender, new ApiClient(b.service.port, 'reads.localhost', spender.token)];
    const statuses: number[] = [];
    for (let i = 0; i < 460; i += 1) {
      statuses.push((await (clients[i % 2] as ApiClient).v2('GET', '/crm/organization?limit=1')).status);
    }
    const allowed = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(allowed).toBeLessThanOrEqual(400);
    // at most a block's unused points per process are lost (a block is 1% of the limit)
    expect(allowed).toBeGreaterThanOrEqual(400 - 2 * 4);
    expect(statuses.slice(-20).every((s) => s === 429)).toBe(true);
  });
});
