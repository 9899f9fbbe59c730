import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '@bo/db';
import { createCaller, systemClock } from '@bo/domain';
import { type Envelope, list, names, post, referenceId } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * The v2 collection language on CRM resources: every operator, each wildcard
 * form, nesting, custom fields, OR, sort stability, select, paging and metadata.
 */
let t: TestService;
let ql: ApiClient;
const ids: Record<string, string> = {};
const q = encodeURIComponent;

beforeAll(async () => {
  t = await startTestService();
  ql = await t.environment('ql');
  const customer = await referenceId(t, 'ql', 'relation_type', `r.label = 'Relationtype_customer'`);
  const prospect = await referenceId(t, 'ql', 'relation_type', `r.label = 'Relationtype_prospect'`);
  const segment = await post(ql, '/crm/organizationcustomfields', { name: 'segment', label: 'Segment', type: 'dropdown' });
  await post(ql, '/customfields/option', { customfield_id: segment, label: 'Gold', value: 'gold' });
  await post(ql, '/customfields/option', { customfield_id: segment, label: 'Silver', value: 'silver' });
  await post(ql, '/crm/personcustomfields', { name: 'hobby', label: 'Hobby', type: 'text' });

  ids.acme = await post(ql, '/crm/organization', {
    name: 'Acme BV',
    relation_number: 'R-1',
    relation_type: { id: customer },
    email: 'info@acme.example',
    visiting_address: { locality: 'Utrecht' },
    custom_fields: [{ name: 'segment', value: 'gold' }],
  });
  ids.holding = await post(ql, '/crm/organization', {
    name: 'acme holding',
    relation_number: 'R-2',
    relation_type: { id: prospect },
    visiting_address: { locality: 'Amsterdam' },
    custom_fields: [{ name: 'segment', value: 'silver' }],
  });
  ids.beta = await post(ql, '/crm/organization', { name: 'Beta bv', visiting_address: { locality: 'Utrecht' } });
  ids.gamma = await post(ql, '/crm/organization', { name: 'Gamma Corp', email: 'hello@gamma.example', relation_number: 'R-3' });
  ids.ann = await post(ql, '/crm/person', {
    first_name: 'Ann',
    family_name: 'Smith',
    linked_as_contact_to_organization: [{ organization_id: ids.acme, work_function: 'CEO' }],
    custom_fields: [{ name: 'hobby', value: 'chess' }],
  });
  ids.bob = await post(ql, '/crm/person', {
    first_name: 'Bob',
    family_name: 'Jones',
    linked_as_contact_to_organization: [{ organization_id: ids.holding }],
  });
  // fixed change times, so the comparison operators have exact answers
  const times: [string, string][] = [
    [ids.acme as string, '2024-01-01 23:59:59'],
    [ids.holding as string, '2024-01-02 00:00:00'],
    [ids.beta as string, '2024-01-02 12:00:00'],
    [ids.gamma as string, '2024-01-03 08:30:00'],
  ];
  for (const [id, at] of times)
    await t.db.query(`UPDATE organization SET updated_at = $2::timestamptz WHERE id = $1`, [id, `${at}Z`]);
});
afterAll(() => t?.stop());

const orgs = (query: string) => names(ql, `/crm/organization?${query}`);

describe('exact match and wildcards', () => {
  it('q[field]=v matches exactly and case-sensitively', async () => {
    expect(await orgs(`q[name]=${q('Acme BV')}`)).toEqual(['Acme BV']);
    expect(await orgs(`q[name]=${q('acme bv')}`)).toEqual([]);
  });

  it('wildcard prefix Acme* matches case-insensitively', async () => {
    expect(await orgs('q[name]=Acme*')).toEqual(['Acme BV', 'acme holding']);
  });

  it('wildcard suffix *bv matches case-insensitively', async () => {
    expect(await orgs('q[name]=*bv')).toEqual(['Acme BV', 'Beta bv']);
  });

  it('wildcard infix *cme* matches anywhere', async () => {
    expect(await orgs('q[name]=*cme*')).toEqual(['Acme BV', 'acme holding']);
  });

  it('a wildcard inside a value (G*p) matches any text between', async () => {
    expect(await orgs('q[name]=G*p')).toEqual(['Gamma Corp']);
  });

  it('LIKE metacharacters in a value are literal: q[name]=Acme_BV matches nothing', async () => {
    expect(await orgs('q[name]=Acme_*')).toEqual([]);
    expect(await orgs('q[name]=%25')).toEqual([]);
  });

  it('q[field]=null matches null values and q[field]=* matches non-null values', async () => {
    expect(await orgs('q[email]=null')).toEqual(['Beta bv', 'acme holding']);
    expect(await orgs('q[email]=*')).toEqual(['Acme BV', 'Gamma Corp']);
  });

  it('null and * work on a to-one relation: organizations without / with a relation type', async () => {
    expect(await orgs('q[relation_type]=null')).toEqual(['Beta bv', 'Gamma Corp']);
    expect(await orgs('q[relation_type.id]=*')).toEqual(['Acme BV', 'acme holding']);
  });
});

describe('combining conditions', () => {
  it('several values on one field match with OR (q[f][]=a&q[f][]=b)', async () => {
    expect(await orgs(`q[name][]=${q('Acme BV')}&q[name][]=${q('Beta bv')}`)).toEqual(['Acme BV', 'Beta bv']);
  });

  it('conditions on different fields match with AND', async () => {
    expect(await orgs('q[name]=*bv&q[visiting_address.locality]=Utrecht')).toEqual(['Acme BV', 'Beta bv']);
    expect(await orgs('q[name]=*bv&q[visiting_address.locality]=Utrecht&q[relation_type.label]=Relationtype_customer')).toEqual([
      'Acme BV',
    ]);
  });

  it('q[or][field] is OR-ed against the AND of the others', async () => {
    expect(await orgs(`q[name]=${q('Gamma Corp')}&q[or][relation_type.label]=Relationtype_prospect`)).toEqual([
      'Gamma Corp',
      'acme holding',
    ]);
    expect(await orgs(`q[name]=*bv&q[email]=null&q[or][relation_number]=R-3`)).toEqual(['Beta bv', 'Gamma Corp']);
  });
});

describe('nested paths', () => {
  it('two deep: q[visiting_address.locality]', async () => {
    expect(await orgs('q[visiting_address.locality]=Amsterdam')).toEqual(['acme holding']);
  });

  it('three deep: contact persons by q[organization.relation_type.label]', async () => {
    const rows = await list<{ person_id: string }>(
      ql,
      '/crm/contactperson?q[organization.relation_type.label]=Relationtype_customer',
    );
    expect(rows.map((r) => r.person_id)).toEqual([ids.ann]);
  });

  it('three deep through a list: persons by q[linked_as_contact_to_organization.organization.name]', async () => {
    expect(
      await names(ql, `/crm/person?q[linked_as_contact_to_organization.organization.name]=${q('acme holding')}`, 'full_name'),
    ).toEqual(['Bob Jones']);
  });

  it('GET /crm/contactperson?q[organization.id]=… lists the contact persons of an organization', async () => {
    const rows = await list<{ organization: { id: string }; person: { full_name: string } }>(
      ql,
      `/crm/contactperson?q[organization.id]=${q(ids.acme as string)}`,
    );
    expect(rows.map((r) => r.person.full_name)).toEqual(['Ann Smith']);
    expect(rows[0]?.organization.id).toBe(ids.acme);
  });
});

describe('operators', () => {
  it('ge, gt, le, lt compare date-times; a date without time is 00:00:00', async () => {
    expect(await orgs('q[updated_at][ge]=2024-01-02')).toEqual(['Beta bv', 'Gamma Corp', 'acme holding']);
    expect(await orgs('q[updated_at][gt]=2024-01-02')).toEqual(['Beta bv', 'Gamma Corp']);
    expect(await orgs('q[updated_at][lt]=2024-01-02')).toEqual(['Acme BV']);
    expect(await orgs('q[updated_at][le]=2024-01-02')).toEqual(['Acme BV', 'acme holding']);
    expect(await orgs(`q[updated_at][ge]=${q('2024-01-02 12:00:00')}&q[updated_at][lt]=${q('2024-01-03 08:30:00')}`)).toEqual([
      'Beta bv',
    ]);
  });

  it('in matches any of a comma-separated list, also through a relation', async () => {
    expect(await orgs('q[relation_number][in]=R-1,R-3')).toEqual(['Acme BV', 'Gamma Corp']);
    expect(await orgs('q[relation_type.label][in]=Relationtype_customer,Relationtype_prospect')).toEqual([
      'Acme BV',
      'acme holding',
    ]);
  });

  it('in and nin coerce every value to the field type: date-times and booleans', async () => {
    expect(await orgs(`q[updated_at][in]=${q('2024-01-02 00:00:00,2024-01-03 08:30:00')}`)).toEqual([
      'Gamma Corp',
      'acme holding',
    ]);
    expect(await orgs(`q[updated_at][nin]=${q('2024-01-02 00:00:00,2024-01-03 08:30:00')}`)).toEqual(['Acme BV', 'Beta bv']);
    expect(await orgs('q[is_active][in]=true,false&q[name]=*bv')).toEqual(['Acme BV', 'Beta bv']);
    const bad = await ql.v2('GET', `/crm/organization?q[updated_at][in]=${q('2024-01-02,soon')}`);
    expect(bad.status).toBe(400);
    expect((bad.body as Envelope).errors?.[0]).toContain('q[updated_at]');
  });

  it('nin matches none of the list, rows without a value included', async () => {
    expect(await orgs('q[relation_number][nin]=R-1,R-3')).toEqual(['Beta bv', 'acme holding']);
    expect(await orgs('q[visiting_address.locality][nin]=Utrecht')).toEqual(['Gamma Corp', 'acme holding']);
  });

  it('change tracking: q[updated_at][ge]=…&sort=-updated_at returns the newest first', async () => {
    const rows = await list<{ name: string; updated_at: string }>(
      ql,
      `/crm/organization?q[updated_at][ge]=${q('2024-01-02 00:00:00')}&sort=-updated_at`,
    );
    expect(rows.map((r) => r.name)).toEqual(['Gamma Corp', 'Beta bv', 'acme holding']);
    expect(rows[0]?.updated_at).toBe('2024-01-03 08:30:00');
  });
});

describe('custom fields', () => {
  it('q[custom_fields.<name>] matches on the custom field name, with wildcards and null', async () => {
    expect(await orgs('q[custom_fields.segment]=gold')).toEqual(['Acme BV']);
    expect(await orgs('q[custom_fields.segment]=*')).toEqual(['Acme BV', 'acme holding']);
    expect(await orgs('q[custom_fields.segment]=null')).toEqual(['Beta bv', 'Gamma Corp']);
    expect(await orgs('q[custom_fields.segment]=S*')).toEqual(['acme holding']);
    expect(await orgs('q[custom_fields.segment][in]=gold,silver&q[name]=*bv')).toEqual(['Acme BV']);
  });

  it('a range on a numeric custom-field value compares numbers, not text', async () => {
    const bulk = await t.environment('cfnum');
    await post(bulk, '/crm/organizationcustomfields', { name: 'staff', label: 'Staff', type: 'integer' });
    for (const [name, staff] of [
      ['Nine', '9'],
      ['Ten', '10'],
      ['Hundred', '100'],
    ] as const) {
      await post(bulk, '/crm/organization', { name, custom_fields: [{ name: 'staff', value: staff }] });
    }
    expect(await names(bulk, '/crm/organization?q[custom_fields.staff][ge]=10')).toEqual(['Hundred', 'Ten']);
    expect(await names(bulk, '/crm/organization?q[custom_fields.staff][lt]=10')).toEqual(['Nine']);
    expect(await names(bulk, '/crm/organization?q[custom_fields.staff]=10')).toEqual(['Ten']);
  });

  it('custom-field filters work on crm/person', async () => {
    expect(await names(ql, '/crm/person?q[custom_fields.hobby]=chess', 'full_name')).toEqual(['Ann Smith']);
  });

  it('a custom-field filter on a resource without custom fields (as hrm/employee) is a 400 naming the parameter', async () => {
    const res = await ql.v2('GET', '/crm/contactperson?q[custom_fields.segment]=gold');
    expect(res.status).toBe(400);
    expect((res.body as Envelope).errors?.[0]).toContain('q[custom_fields.segment]');
    expect((res.body as Envelope).errors?.[0]).toContain('not supported');
  });

  it('reads carry custom_fields with value, display_value and mandatory', async () => {
    const res = await ql.v2('GET', `/crm/organization/${ids.acme}`);
    const fields = (res.body as Envelope<{ custom_fields: Record<string, unknown>[] }>).data.custom_fields;
    expect(fields).toEqual([
      expect.objectContaining({ name: 'segment', value: 'gold', display_value: 'Gold', mandatory: false, value_type: 'Text' }),
    ]);
  });
});

describe('select', () => {
  it('keeps only the named fields, b.c inside b, d. all of d; id always; unknown paths ignored', async () => {
    const rows = await list<Record<string, unknown>>(
      ql,
      `/crm/organization?q[name]=${q('Acme BV')}&select=name,visiting_address.locality,debtor.,no_such_field`,
    );
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(['debtor', 'id', 'name', 'visiting_address']);
    expect(rows[0]?.visiting_address).toEqual({ locality: 'Utrecht' });
    expect(rows[0]?.debtor).toMatchObject({ send_invoice_email_to_contact: false, payment_term: null });
  });

  it('select works on a single read and through lists (custom_fields.name)', async () => {
    const res = await ql.v2('GET', `/crm/organization/${ids.acme}?select=custom_fields.name`);
    expect((res.body as Envelope).data).toEqual({ id: ids.acme, custom_fields: [{ name: 'segment' }] });
  });
});

describe('paging', () => {
  it('limit above 100 is cut to 100 and metadata says so; count is the whole filtered collection', async () => {
    const res = await ql.v2('GET', '/crm/organization?q[name]=*a*&limit=500&offset=1&metadata=count,limit,offset');
    expect(res.status).toBe(200);
    const body = res.body as Envelope<unknown[]>;
    expect(body.metadata).toEqual({ count: 4, limit: 100, offset: 1 });
    expect(body.data).toHaveLength(3);
  });

  it('sort is stable across pages: equal sort values never repeat or skip a row', async () => {
    const stab = await t.environment('stab');
    const made: string[] = [];
    for (let i = 0; i < 23; i += 1) made.push(await post(stab, '/crm/organization', { name: `Same ${i % 3}` }));
    for (const sort of ['name', '-name', 'is_active,-name', 'relation_type.label']) {
      const seen: string[] = [];
      for (let offset = 0; offset < 30; offset += 4) {
        const rows = await list<{ id: string; name: string }>(stab, `/crm/organization?sort=${sort}&limit=4&offset=${offset}`);
        seen.push(...rows.map((r) => r.id));
      }
      expect(seen).toHaveLength(23);
      expect(new Set(seen)).toEqual(new Set(made));
    }
    const sorted = await list<{ name: string }>(stab, '/crm/organization?sort=-name&limit=100');
    expect(sorted.map((r) => r.name)).toEqual([...sorted.map((r) => r.name)].sort().reverse());
  });
});

describe('one page, a fixed number of queries', () => {
  it('listing 2 or 60 organizations with their relations and custom fields costs the same number of queries', async () => {
    const bulk = await t.environment('bulk');
    const field = await post(bulk, '/crm/organizationcustomfields', { name: 'tier', label: 'Tier', type: 'text' });
    expect(field).toMatch(/^customfield:/);
    const person = await post(bulk, '/crm/person', { family_name: 'Contact' });
    const interest = await referenceId(t, 'bulk', 'interest', `r.name = 'Events'`);
    for (let i = 0; i < 60; i += 1) {
      await post(bulk, '/crm/organization', {
        name: `Bulk ${i}`,
        visiting_address: { locality: 'Utrecht' },
        postal_address: { locality: 'Zeist' },
        interests: [{ id: interest }],
        linked_persons_contacts: [{ person_id: person }],
        custom_fields: [{ name: 'tier', value: `t${i}` }],
      });
    }
    const queries: string[] = [];
    const prisma = createPrismaClient(t.db.url, { max: 2, onQuery: (sql) => queries.push(sql) });
    try {
      const principal = await t.system.auth.authenticate({
        environment: 'bulk',
        key: bulk.token?.key ?? null,
        secret: bulk.token?.secret ?? null,
      });
      const caller = createCaller({ prisma, principal, clock: systemClock });
      const count = async (limit: number) => {
        queries.length = 0;
        const result = await caller.crm.organization.list({
          orderBy: [{ path: 'name', dir: 'asc' }],
          offset: 0,
          limit,
          count: true,
        });
        expect(result.items).toHaveLength(limit);
        expect(result.count).toBe(60);
        return queries.filter((s) => /^\s*(SELECT|WITH)/i.test(s)).length;
      };
      const small = await count(2);
      const large = await count(60);
      expect(large).toBe(small);
      // page ids, count, the rows with their relations as JSON, custom-field definitions, values
      expect(large).toBeLessThanOrEqual(6);
    } finally {
      await prisma.$disconnect();
    }
  });
});
