import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller, systemClock } from '@bo/domain';
import { v2Resources } from '../apps/api-v2/src/resources/index.js';
import type { AnyV2Resource } from '../apps/api-v2/src/resources/v2-resource.js';
import { type Envelope, post, referenceId } from './support/crm.js';
import { createTestDatabase } from './support/database.js';
import { type StatementLog, startStatementLog } from './support/pg-statement-log.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * A v2 read declared as a shape (v2-shape.ts) is compiled twice: PostgreSQL makes a page's rows
 * as JSON text from it, the process makes a single read from it. The rule: both give the same
 * JSON, key for key and in the same order, for rows with every field set and with every field
 * empty, on every kind of page statement (first page, deeper page, filtered page), and for a
 * caller whose rights mask a relation. Each resource with a shape has its rows seeded here;
 * a shape without them fails the first test.
 */
let t: TestService;
let acme: ApiClient;
let log: StatementLog;

type Seed = (api: ApiClient) => Promise<string[]>;

const seeds: Record<string, Seed> = {
  'crm/organization': async (api) => {
    const group = await post(api, '/customfields/group', {
      name: 'Shapes',
      position: 3,
      model: { id: await referenceId(t, 'shapes', 'custom_field_model', `r.label = 'Organization'`) },
    });
    const tier = await post(api, '/crm/organizationcustomfields', {
      name: 'tier',
      label: 'Tier',
      type: 'text',
      custom_field_group_id: group,
    });
    await post(api, '/crm/organizationcustomfields', { name: 'note_x', label: 'Note X', type: 'text' });
    // options of the tier field: the value shown takes the option's label
    await t.db.query(
      `INSERT INTO custom_field_option (id, environment_id, custom_field_id, label, value, position, updated_at)
       SELECT 'customfieldoption:' || md5(random()::text || g), f.environment_id, f.id, 'Label ' || g, 'v' || g, g, now()
         FROM custom_field f, generate_series(1, 2) g WHERE f.id = $1`,
      [tier],
    );
    const employee = await post(api, '/hrm/employee', { name: 'Shape Manager', work_email: 'manager@shapes.test' });
    const person = await post(api, '/crm/person', { first_name: 'Shay', family_name: 'Pe' });
    const events = await referenceId(t, 'shapes', 'interest', `r.name = 'Events'`);
    const relationType = await referenceId(t, 'shapes', 'relation_type', 'true');
    const industry = await referenceId(t, 'shapes', 'industry', 'true');
    const size = await referenceId(t, 'shapes', 'organization_size', 'true');
    const full = await post(api, '/crm/organization', {
      name: 'Everything "Quoted" BV',
      coc_code: '123',
      vat_number: 'NL1',
      email: 'all@shapes.test',
      phone: '+31 1',
      url: 'https://shapes.test',
      note: 'line\nbreak \\ slash',
      linkedin_url: 'https://linkedin.test/x',
      has_different_postal_address: true,
      relation_type: { id: relationType },
      industry: { id: industry },
      organizationsize: { id: size },
      interests: [{ id: events }],
      linked_persons_contacts: [{ person_id: person, work_function: 'Buyer', work_email: 'shay@shapes.test' }],
      invoice_receiver: 'Finance',
      allow_autocollect: true,
      bank_account: 'NL00BANK0123',
      bank_bic: 'BANKNL2A',
      relation_number: 'S-1',
      send_invoice_email_to_contact: true,
      send_invoice_email_to_cc: true,
      visiting_address: { line_1: 'Main 1', line_2: 'Back', postal_code: '1000 AA', locality: 'Ütrecht', country_code: 'NL' },
      postal_address: { line_1: 'PO Box 1', locality: 'Amsterdam', country_code: 'NL' },
      relation_manager: { id: employee },
      custom_fields: [{ name: 'tier', value: 'v2' }],
      debtor: { provision_method: 'email', cc: ['a@shapes.test', 'b@shapes.test'], attention_to_fixed: 'Accounts' },
    });
    const other = await post(api, '/crm/organization', {
      name: 'Valued BV',
      custom_fields: [
        { name: 'tier', value: 'not an option' },
        { name: 'note_x', value: 'x' },
      ],
    });
    const empty = await post(api, '/crm/organization', { name: 'Empty BV' });
    return [full, other, empty];
  },
};

/** reference data every environment has: the first two rows of the page, and one without its optional fields where there is one */
const referenceRows =
  (path: string): Seed =>
  async (api) => {
    const res = await api.v2('GET', `/${path}?limit=2`);
    const rows = (res.body as Envelope<{ id: string }[]>).data;
    expect(rows.length, `${path}: reference rows in a fresh environment`).toBeGreaterThan(0);
    return rows.map((r) => r.id);
  };

seeds['crm/country'] = referenceRows('crm/country');
seeds['crm/gender'] = referenceRows('crm/gender');
seeds['crm/industry'] = referenceRows('crm/industry');
seeds['crm/organizationsize'] = referenceRows('crm/organizationsize');
seeds['crm/relationtype'] = referenceRows('crm/relationtype');
seeds['crm/interests'] = async (api) => {
  const rows = await referenceRows('crm/interests')(api);
  // an interest without its api name (not Events: the organization's row shows that one's)
  await t.db.query(`UPDATE interest SET api_name = NULL WHERE id = ANY($1) AND name <> 'Events'`, [rows]);
  return rows;
};
seeds['crm/contactperson'] = async (api) => {
  const organization = await post(api, '/crm/organization', { name: 'Linked BV', relation_number: 'L-1' });
  const person = await post(api, '/crm/person', { first_name: 'Link', family_name: 'Ed' });
  const bare = await post(api, '/crm/person', { first_name: 'Bare', family_name: 'Link' });
  const linked = await api.v2('PUT', `/crm/organization/${organization}`, {
    linked_persons_contacts: [
      { person_id: person, work_function: 'Owner', work_email: 'owner@linked.test', work_phone: '1', work_mobile: '2' },
      { person_id: bare },
    ],
  });
  expect(linked.status, linked.text).toBe(200);
  const res = await api.v2('GET', `/crm/contactperson?q[organization.id]=${encodeURIComponent(organization)}`);
  const rows = (res.body as Envelope<{ id: string }[]>).data;
  expect(rows).toHaveLength(2);
  return rows.map((r) => r.id);
};

const shaped = v2Resources.filter((r) => r.shape);

/** the resource's procedures for a caller of the environment, in process (the JS and the SQL forms side by side) */
async function proceduresOf(resource: AnyV2Resource, api: ApiClient) {
  const principal = await t.system.auth.authenticate({
    environment: 'shapes',
    key: api.token?.key ?? null,
    secret: api.token?.secret ?? null,
  });
  const procedures = resource.procedures(createCaller({ prisma: t.service.database.prisma, principal, clock: systemClock }));
  const { listAs, getAs } = procedures;
  if (!listAs || !getAs) throw new Error(`${resource.path}: its procedures have no listAs or getAs`);
  return { list: procedures.list, get: procedures.get, listAs, getAs };
}

beforeAll(async () => {
  const db = await createTestDatabase();
  log = await startStatementLog(db.url);
  t = await startTestService({ db: { ...db, url: log.url } });
  acme = await t.environment('shapes');
});
afterAll(async () => {
  await t?.stop();
  await log?.close();
});

const data = <T>(res: { status: number; text: string; body: unknown }): T => {
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<T>).data;
};

describe('declared v2 read shapes', () => {
  it('every resource whose read is declared as a shape has rows seeded for the equality test', () => {
    expect(shaped.length).toBeGreaterThan(0);
    expect(shaped.map((r) => r.path).filter((p) => !seeds[p])).toEqual([]);
  });

  describe.each(shaped.map((r) => [r.path]))('%s', (path) => {
    let ids: string[] = [];
    beforeAll(async () => {
      ids = await (seeds[path] as Seed)(acme);
    });

    it('the JSON PostgreSQL makes from the shape equals the shape’s read made in the process, value for value and key for key in order, for a single row and on every kind of page statement (first, deeper, filtered), with every field set and with every field empty', async () => {
      const resource = shaped.find((r) => r.path === path) as AnyV2Resource;
      const shape = resource.shape as NonNullable<AnyV2Resource['shape']>;
      const p = await proceduresOf(resource, acme);
      const inProcess = (row: unknown) => JSON.stringify(shape.read(row));
      // compared as written again: a json value inside keeps PostgreSQL's spacing (`["a", "b"]`)
      const rewritten = (text: string) => JSON.stringify(JSON.parse(text));
      for (const id of ids) {
        const made = await p.getAs({ id, projection: shape });
        expect(rewritten(made.json)).toBe(inProcess(await p.get({ id })));
        const where = { path: 'id', op: 'eq' as const, value: id };
        const filtered = await p.listAs({ where, orderBy: [], offset: 0, limit: 100, count: true, projection: shape });
        expect(filtered).toEqual({ items: [made.json], count: 1 });
      }
      const first = await p.listAs({ orderBy: [], offset: 0, limit: 100, count: false, projection: shape });
      const deeper = await p.listAs({ orderBy: [], offset: 1, limit: 100, count: false, projection: shape });
      const rows = await p.list({ orderBy: [], offset: 0, limit: 100, count: false });
      expect(first.items.map(rewritten)).toEqual(rows.items.map(inProcess));
      expect(deeper.items).toEqual(first.items.slice(1));
      for (const id of ids) expect(first.items.filter((text) => text.includes(JSON.stringify(id)))).not.toHaveLength(0);
    });

    it('over HTTP a listed row equals its single read, key for key', async () => {
      for (const id of ids) {
        const single = data<Record<string, unknown>>(await acme.v2('GET', `/${path}/${id}`));
        const filtered = data<Record<string, unknown>[]>(await acme.v2('GET', `/${path}?q[id]=${encodeURIComponent(id)}`));
        expect(filtered).toHaveLength(1);
        expect(JSON.stringify(filtered[0])).toBe(JSON.stringify(single));
      }
    });

    it('a page is made as JSON by PostgreSQL: its rows come as one text each from the page statement (each object as text put together in SQL), and a page with `select` does not', async () => {
      const page = async (query: string) => {
        await new Promise((r) => setTimeout(r, 50));
        log.clear();
        data(await acme.v2('GET', `/${path}?${query}`));
        await new Promise((r) => setTimeout(r, 50));
        return log.statements.map((s) => s.sql).filter((sql) => !/^(BEGIN|COMMIT|SET|RESET)/i.test(sql.trim()));
      };
      const shapedPage = await page('limit=10');
      expect(shapedPage.some((sql) => /^\s*SELECT \('\{"/.test(sql) && /AS j\b/.test(sql))).toBe(true);
      const selected = await page('limit=10&select=id');
      expect(selected.some((sql) => /AS j\b/.test(sql))).toBe(false);
    });

    it('a page with `select` keeps only the keys named, from the same shape', async () => {
      const [id] = ids;
      const rows = data<Record<string, unknown>[]>(
        await acme.v2('GET', `/${path}?q[id]=${encodeURIComponent(id as string)}&select=id,created_at`),
      );
      expect(rows).toHaveLength(1);
      const single = data<Record<string, unknown>>(await acme.v2('GET', `/${path}/${id}`));
      expect(rows[0]).toEqual({ id, created_at: single.created_at });
    });
  });

  it('crm/organization: a caller without the hrm right sees the relation manager as id and name on pages and single reads alike', async () => {
    const crmOnly = await t.user('shapes', 'crm-only@shapes.test', { crm: 'read' });
    const rows = data<Record<string, unknown>[]>(await crmOnly.v2('GET', '/crm/organization?q[name]=Everything*'));
    expect(rows).toHaveLength(1);
    const row = rows[0] as Record<string, unknown>;
    expect(row.relation_manager).toEqual({ id: expect.any(String), name: 'Shape Manager' });
    const single = data<Record<string, unknown>>(await crmOnly.v2('GET', `/crm/organization/${row.id}`));
    expect(JSON.stringify(row)).toBe(JSON.stringify(single));
    // in process: the masked row's read equals what the shaped procedures answer
    const resource = shaped.find((r) => r.path === 'crm/organization') as AnyV2Resource;
    const p = await proceduresOf(resource, crmOnly);
    const made = await p.getAs({ id: row.id as string, projection: resource.shape as NonNullable<AnyV2Resource['shape']> });
    expect(JSON.stringify(JSON.parse(made.json))).toBe(JSON.stringify(row));
    expect(JSON.stringify(row)).not.toContain('manager@shapes.test');
  });

  it('crm/organization: a prefix page with its count (one statement, the count a column of every row) reads the same for a caller whose rights mask a relation, without the count among its keys', async () => {
    const crmOnly = await t.user('shapes', 'crm-only-count@shapes.test', { crm: 'read' });
    await new Promise((r) => setTimeout(r, 50));
    log.clear();
    const res = await crmOnly.v2('GET', '/crm/organization?q[name]=Everything*&metadata=count');
    const rows = data<Record<string, unknown>[]>(res);
    await new Promise((r) => setTimeout(r, 50));
    // the page and its count came from the one statement (the path this test is about)
    expect(log.statements.filter((s) => s.sql.includes('page_count__'))).toHaveLength(1);
    expect((res.body as Envelope).metadata).toEqual({ count: 1 });
    expect(rows).toHaveLength(1);
    const row = rows[0] as Record<string, unknown>;
    // the statement's count column (page_count__) is not among the row's keys
    expect(Object.keys(row).filter((key) => key.endsWith('__'))).toEqual([]);
    expect(row.relation_manager).toEqual({ id: expect.any(String), name: 'Shape Manager' });
    const single = data<Record<string, unknown>>(await crmOnly.v2('GET', `/crm/organization/${row.id}`));
    expect(JSON.stringify(row)).toBe(JSON.stringify(single));
    // and a prefix nothing starts with: an empty page counted apart
    const none = await crmOnly.v2('GET', '/crm/organization?q[name]=Nothing%20starts%20so*&metadata=count');
    expect(data<unknown[]>(none)).toEqual([]);
    expect((none.body as Envelope).metadata).toEqual({ count: 0 });
  });

  it('crm/organization: the seeded row with every field set shows each of them (the shape reads what was written)', async () => {
    const [row] = data<Record<string, unknown>[]>(await acme.v2('GET', '/crm/organization?q[name]=Everything*'));
    expect(row).toMatchObject({
      name: 'Everything "Quoted" BV',
      note: 'line\nbreak \\ slash',
      organizationsize: { id: expect.any(String), name: expect.any(String) },
      interests: [expect.objectContaining({ name: 'Events', api_name: expect.anything() })],
      linked_persons_contacts: [expect.objectContaining({ work_function: 'Buyer', is_active: true })],
      visiting_address: { line_1: 'Main 1', line_2: 'Back', locality: 'Ütrecht', country: null },
      postal_address: { line_1: 'PO Box 1' },
      relation_manager: { name: 'Shape Manager', employment_status: 'active', work_email: 'manager@shapes.test' },
      debtor: { provision_method: 'email', cc: ['a@shapes.test', 'b@shapes.test'], send_invoice_email_to_cc: true },
      teams: [],
      created: (row as Record<string, unknown>).created_at,
      modified: (row as Record<string, unknown>).updated_at,
    });
    const fields = (row as { custom_fields: Record<string, unknown>[] }).custom_fields;
    expect(fields.map((f) => [f.name, f.value, f.display_value])).toEqual([
      ['tier', 'v2', 'Label 2'],
      ['note_x', null, null],
    ]);
    expect(fields[0]).toMatchObject({
      custom_field_group: { name: 'Shapes', position: '3' },
      options: [expect.objectContaining({ label: 'Label 1', position: 1 }), expect.objectContaining({ value: 'v2' })],
    });
    expect(String((row as Record<string, unknown>).created_at)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });
});
