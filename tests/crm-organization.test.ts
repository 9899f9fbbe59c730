import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantSql } from '@bo/db';
import { createCaller, systemClock } from '@bo/domain';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

let t: TestService;
let acme: ApiClient;
let other: ApiClient;

type Envelope<T = Record<string, unknown>> = { data: T; errors: unknown; debug: unknown; metadata?: Record<string, number> };

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  other = await t.environment('other');
});
afterAll(() => t?.stop());

async function create(client: ApiClient, body: Record<string, unknown>): Promise<string> {
  const res = await client.v2('POST', '/crm/organization', body);
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<{ id: string }>).data.id;
}

describe('crm/organization through v2', () => {
  it('POST answers the new id and GET /{id} shows every field of the reference shape', async () => {
    const relationTypes = await t.db.query<{ id: string }>(
      `SELECT r.id FROM relation_type r JOIN environment e ON e.id = r.environment_id WHERE e.name = 'acme' LIMIT 1`,
    );
    const id = await create(acme, {
      name: 'Acme BV',
      email: 'info@acme.example',
      relation_number: 'R-1',
      is_active: true,
      relation_type: { id: relationTypes[0]?.id },
      visiting_address: { line_1: 'Main 1', locality: 'Utrecht', country_code: 'NL' },
      send_invoice_email_to_contact: true,
      send_invoice_email_to_cc: false,
    });
    expect(id).toMatch(/^organization:[0-9a-f]{32}$/);
    const res = await acme.v2('GET', `/crm/organization/${id}`);
    expect(res.status).toBe(200);
    const o = (res.body as Envelope).data;
    expect(o).toMatchObject({
      id,
      name: 'Acme BV',
      relation_number: 'R-1',
      is_active: true,
      relation_type: { id: relationTypes[0]?.id, label: expect.any(String) },
      visiting_address: { line_1: 'Main 1', locality: 'Utrecht', country_code: 'NL' },
      postal_address: null,
      industry: null,
      organizationsize: null,
      send_invoice_email_to_contact: true,
      send_invoice_email_to_project_contact: false,
      send_invoice_email_to_fixed_email: false,
      send_invoice_email_to_cc: false,
      custom_fields: [],
    });
    expect(o.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(o.updated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('PUT changes only the fields it names; DELETE removes the row', async () => {
    const id = await create(acme, { name: 'Put Me', email: 'keep@example.com' });
    const put = await acme.v2('PUT', `/crm/organization/${id}`, { name: 'Put Me Renamed', is_active: false });
    expect(put.status).toBe(200);
    const o = (await acme.v2('GET', `/crm/organization/${id}`)).body as Envelope;
    expect(o.data).toMatchObject({ name: 'Put Me Renamed', email: 'keep@example.com', is_active: false });
    const del = await acme.v2('DELETE', `/crm/organization/${id}`);
    expect(del.status).toBe(200);
    expect((await acme.v2('GET', `/crm/organization/${id}`)).status).toBe(404);
  });

  it('limit defaults to 100, offset pages, sort orders, and metadata counts the filtered collection', async () => {
    for (let i = 0; i < 5; i += 1) await create(acme, { name: `Paging ${i}` });
    const res = await acme.v2('GET', '/crm/organization?q[name]=Paging*&sort=-name&limit=2&offset=1&metadata=count,limit,offset');
    expect(res.status).toBe(200);
    const body = res.body as Envelope<{ name: string }[]>;
    expect(body.data.map((o) => o.name)).toEqual(['Paging 3', 'Paging 2']);
    expect(body.metadata).toEqual({ count: 5, limit: 2, offset: 1 });
    const all = (await acme.v2('GET', '/crm/organization?metadata=limit')).body as Envelope<unknown[]>;
    expect(all.metadata).toEqual({ limit: 100 });
  });

  it('q[name]= matches exactly', async () => {
    await create(acme, { name: 'Exact Name' });
    await create(acme, { name: 'Exact Name Plus' });
    const res = await acme.v2('GET', '/crm/organization?q[name]=Exact%20Name');
    expect((res.body as Envelope<{ name: string }[]>).data.map((o) => o.name)).toEqual(['Exact Name']);
  });
});

describe('one service, two versions', () => {
  it('a change through v2 is visible through v3 at once with the same id', async () => {
    const id = await create(acme, { name: 'Cross Version', relation_number: 'X-1' });
    const v3 = await acme.v3('GET', `/organization.get/${encodeURIComponent(id)}`);
    expect(v3.status).toBe(200);
    expect(v3.body).toMatchObject({ id, name: 'Cross Version', relationNumber: 'X-1', isActive: true });
    await acme.v2('PUT', `/crm/organization/${id}`, { name: 'Cross Version 2' });
    const again = await acme.v3('GET', `/organization.get/${encodeURIComponent(id)}`);
    expect(again.body).toMatchObject({ id, name: 'Cross Version 2' });
  });

  it('v3 organization.list pages from 1 with itemsPerPage (max 30) and filters name= and name[]=', async () => {
    for (let i = 0; i < 3; i += 1) await create(acme, { name: `V3 List ${i}` });
    const one = await acme.v3('GET', '/organization.list?name=V3%20List%201');
    expect((one.body as { items: { name: string }[] }).items.map((o) => o.name)).toEqual(['V3 List 1']);
    const many = await acme.v3('GET', '/organization.list?name[]=V3%20List%200&name[]=V3%20List%202&itemsPerPage=1&page=2');
    expect(many.status).toBe(200);
    expect(many.body).toMatchObject({ page: 2, itemsPerPage: 1, totalItems: 2, totalPages: 2 });
    expect((many.body as { items: unknown[] }).items).toHaveLength(1);
    expect((await acme.v3('GET', '/organization.list?itemsPerPage=31')).status).toBe(400);
    expect((await acme.v3('GET', '/organization.list?page=0')).status).toBe(400);
    expect((await acme.v3('GET', '/organization.list?colour=red')).status).toBe(400);
  });

  it('tRPC: the same procedures are callable in process, and what they write v2 reads', async () => {
    const principal = await t.system.auth.authenticate({
      environment: 'acme',
      key: acme.token?.key ?? null,
      secret: acme.token?.secret ?? null,
    });
    const caller = createCaller({ prisma: t.service.database.prisma, principal, clock: systemClock });
    const { id } = await caller.crm.organization.create({ data: { name: 'Made In Process' } });
    const v2 = await acme.v2('GET', `/crm/organization/${id}`);
    expect((v2.body as Envelope).data).toMatchObject({ id, name: 'Made In Process' });
  });

  it('tRPC over HTTP at /trpc answers with token auth, and refuses without it', async () => {
    const { send } = await import('./support/http.js');
    const input = encodeURIComponent(JSON.stringify({ limit: 1 }));
    const ok = await send(t.service.port, 'GET', `/trpc/crm.organization.list?input=${input}`, {
      host: 'acme.localhost',
      headers: { authorization: `Bearer ${acme.token?.key}:${acme.token?.secret}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ result: { data: { items: expect.any(Array) } } });
    const refused = await send(t.service.port, 'GET', `/trpc/crm.organization.list?input=${input}`, { host: 'acme.localhost' });
    expect(refused.status).toBe(401);
  });
});

describe('tenant isolation', () => {
  it("an id of another environment's row answers 404, never the row, and cannot be changed or deleted", async () => {
    const id = await create(other, { name: 'Other Env Org' });
    const get = await acme.v2('GET', `/crm/organization/${id}`);
    expect(get.status).toBe(404);
    expect(get.text).not.toContain('Other Env Org');
    expect((await acme.v2('PUT', `/crm/organization/${id}`, { name: 'Hijack' })).status).toBe(404);
    expect((await acme.v2('DELETE', `/crm/organization/${id}`)).status).toBe(404);
    expect((await acme.v3('GET', `/organization.get/${encodeURIComponent(id)}`)).status).toBe(404);
    const rows = await t.db.query<{ name: string }>('SELECT name FROM organization WHERE id = $1', [id]);
    expect(rows[0]?.name).toBe('Other Env Org');
    const list = (await acme.v2('GET', '/crm/organization?q[name]=Other*')).body as Envelope<unknown[]>;
    expect(list.data).toEqual([]);
  });

  it('list pages read through the tenant reader: $1 is always the caller environment, whatever the parameters', async () => {
    await create(acme, { name: 'Reader Acme Org' });
    await create(other, { name: 'Reader Other Org' });
    const [acmeEnv] = await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`);
    const [otherEnv] = await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'other'`);
    const sql = tenantSql(t.service.database.prisma, acmeEnv?.id as string);
    // a caller's parameters bind $2…: passing another environment's id cannot replace $1
    const rows = await sql.read<{ name: string; env: string }>(
      `SELECT name, environment_id AS env FROM organization WHERE environment_id = $1 AND (name LIKE 'Reader%' OR $2::text IS NOT NULL)`,
      [otherEnv?.id],
    );
    expect(rows.map((r) => r.name)).toContain('Reader Acme Org');
    expect(rows.every((r) => r.env === acmeEnv?.id)).toBe(true);
    // the one-statement page (ids joined to rows) keeps to the environment and to the filter
    const page = (await acme.v2('GET', '/crm/organization?q[name]=Reader*&sort=-name')).body as Envelope<{ name: string }[]>;
    expect(page.data.map((o) => o.name)).toEqual(['Reader Acme Org']);
    const otherPage = (await other.v2('GET', '/crm/organization?q[name]=Reader*')).body as Envelope<{ name: string }[]>;
    expect(otherPage.data.map((o) => o.name)).toEqual(['Reader Other Org']);
  });

  it("a reference to another environment's relation type is refused with 400", async () => {
    const foreign = await t.db.query<{ id: string }>(
      `SELECT r.id FROM relation_type r JOIN environment e ON e.id = r.environment_id WHERE e.name = 'other' LIMIT 1`,
    );
    const res = await acme.v2('POST', '/crm/organization', { name: 'Bad Ref', relation_type: { id: foreign[0]?.id } });
    expect(res.status).toBe(400);
    expect((res.body as Envelope).errors).toEqual([expect.stringContaining('relation_type.id')]);
  });
});
