import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantSql } from '@bo/db';
import { organization } from '@bo/domain/crm/organization/organization.entity';
import { entityEventData } from '@bo/domain/shared/entity/entity-crud';
import { type LoggedStatement, type StatementLog, startStatementLog, transactionsOf } from './support/pg-statement-log.js';
import { createTestDatabase } from './support/database.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * The statements of one write, as PostgreSQL receives them (a relay in front of the server
 * logs every statement the service sends): a create or an update is one transaction with
 * the row, its parts, its custom-field values and its event, and nothing read twice.
 */
let t: TestService;
let log: StatementLog;
let api: ApiClient;

interface Envelope {
  data: { id: string } & Record<string, unknown>;
  errors: string[] | null;
}

const BODY = (n: number) => ({
  name: `Counted ${n} BV`,
  relation_number: `C-${n}`,
  email: `info${n}@example.com`,
  visiting_address: { line_1: 'Main 1', postal_code: '3511 AA', locality: 'Utrecht', country_code: 'NL' },
  custom_fields: [{ name: 'tier', value: 'gold' }],
});

/** The statements the service sends while one request runs (the log settles before and after). */
async function statementsOf<T>(request: () => Promise<T>): Promise<{ answer: T; statements: LoggedStatement[] }> {
  await new Promise((r) => setTimeout(r, 50));
  log.clear();
  const answer = await request();
  await new Promise((r) => setTimeout(r, 50));
  return { answer, statements: [...log.statements] };
}

/** The one transaction whose statements include `marker`; fails when there is not exactly one. */
function transactionWith(statements: LoggedStatement[], marker: RegExp): string[] {
  const matching = transactionsOf(statements).filter((tx) => tx.some((s) => marker.test(s.sql)));
  expect(matching).toHaveLength(1);
  return (matching[0] as LoggedStatement[]).map((s) => s.sql.replace(/\s+/g, ' ').trim());
}

/** How many times the connection of the one transaction with `marker` waited for the server in it. */
function roundTripsOf(statements: LoggedStatement[], marker: RegExp): number {
  const [tx] = transactionsOf(statements).filter((t) => t.some((s) => marker.test(s.sql)));
  return new Set((tx ?? []).map((s) => s.roundTrip)).size;
}

const referenceId = async (table: string) => {
  const rows = await t.db.query<{ id: string }>(
    `SELECT r.id FROM ${table} r JOIN environment e ON e.id = r.environment_id WHERE e.name = 'counted' ORDER BY r.id LIMIT 1`,
  );
  return rows[0]?.id as string;
};

beforeAll(async () => {
  const db = await createTestDatabase();
  log = await startStatementLog(db.url);
  t = await startTestService({ db: { ...db, url: log.url } });
  api = await t.environment('counted');
  const field = await api.v2('POST', '/crm/organizationcustomfields', { name: 'tier', label: 'Tier', type: 'text' });
  expect(field.status).toBe(200);
  // the first write of a process fills caches later ones reuse
  expect((await api.v2('POST', '/crm/organization', BODY(0))).status).toBe(200);
});

afterAll(async () => {
  await t?.stop();
  await log?.close();
});

describe('statements of a write', () => {
  it('an organization create is one transaction of at most 6 statements in one round trip, its event inside it (made by PostgreSQL from the row), its custom-field definitions read before it', async () => {
    const { answer, statements } = await statementsOf(() => api.v2('POST', '/crm/organization', BODY(1)));
    expect(answer.status).toBe(200);
    const tx = transactionWith(statements, /INSERT INTO ("public"\.)?"organization" /);
    // BEGIN, the row, its address, the value, the event (its payload made from the row), COMMIT
    expect(tx.length, tx.join('\n')).toBeLessThanOrEqual(6);
    // in one round trip: nothing is read back, every statement goes with the COMMIT (pipelined)
    expect(roundTripsOf(statements, /INSERT INTO ("public"\.)?"organization" /)).toBe(1);
    expect(tx.filter((s) => /^SELECT /i.test(s))).toHaveLength(0);
    expect(tx.filter((s) => /^INSERT INTO "?event"? /i.test(s.replace(/"public"\./, '')))).toHaveLength(1);
    // the definitions are the process's remembered ones, read (if at all) before the transaction opened
    expect(tx.filter((s) => /FROM custom_field f/.test(s) && !/^INSERT INTO "?event"? /i.test(s))).toHaveLength(0);
    expect(tx.filter((s) => /^DELETE/i.test(s))).toHaveLength(0);
    // beside the transaction, the request only authenticates, counts against the rate limit and
    // (when what it remembers is older than a second) reads the definitions again
    expect(statements.length - tx.length).toBeLessThanOrEqual(3);
    const id = (answer.body as Envelope).data.id;
    const [event] = await t.db.query<{ type: string; recent: boolean; data: Record<string, unknown> }>(
      `SELECT type, occurred_at > now() - interval '1 minute' AND occurred_at <= now() AS recent, data FROM event WHERE entity_id = $1`,
      [id],
    );
    expect(event).toMatchObject({ type: 'organization.created', recent: true });
    expect(event?.data).toMatchObject({
      id,
      name: 'Counted 1 BV',
      relationNumber: 'C-1',
      visitingAddress: { line1: 'Main 1', locality: 'Utrecht' },
      customFields: [expect.objectContaining({ name: 'tier', value: 'gold' })],
    });
  });

  it('a create that links contacts goes the same one way: one transaction, its person checked with BEGIN, the links and the event with the COMMIT', async () => {
    const person = await api.v2('POST', '/crm/person', { first_name: 'Linked', family_name: 'Contact' });
    expect(person.status, person.text).toBe(200);
    const personId = (person.body as Envelope).data.id;
    const { answer, statements } = await statementsOf(() =>
      api.v2('POST', '/crm/organization', {
        ...BODY(8),
        interests: [],
        linked_persons_contacts: [{ person_id: personId, work_function: 'Buyer' }],
      }),
    );
    expect(answer.status, answer.text).toBe(200);
    const tx = transactionWith(statements, /INSERT INTO ("public"\.)?"organization" /);
    expect(
      tx.filter((s) => /^INSERT INTO contact_person /.test(s)),
      tx.join('\n'),
    ).toHaveLength(1);
    // BEGIN, the person's check, the row, its address, the interests, the link, the value, the event,
    // COMMIT: the check is the one read (with BEGIN), everything else goes with the COMMIT
    expect(tx.length, tx.join('\n')).toBeLessThanOrEqual(9);
    expect(tx.filter((s) => /^SELECT /i.test(s))).toHaveLength(1);
    expect(roundTripsOf(statements, /INSERT INTO ("public"\.)?"organization" /)).toBeLessThanOrEqual(2);
    expect(tx.filter((s) => /^INSERT INTO "?event"? /i.test(s.replace(/"public"\./, '')))).toHaveLength(1);
    const id = (answer.body as Envelope).data.id;
    const got = await api.v2('GET', `/crm/organization/${id}`);
    expect((got.body as Envelope).data.linked_persons_contacts).toEqual([
      expect.objectContaining({ person_id: personId, work_function: 'Buyer' }),
    ]);
  });

  it('every part a create may name goes through its own transaction: an address given as null, interests, custom fields', async () => {
    const interest = await referenceId('interest');
    const created = await api.v2('POST', '/crm/organization', {
      ...BODY(9),
      visiting_address: null,
      postal_address: { line_1: 'Box 9', locality: 'Zeist' },
      interests: [{ id: interest }],
    });
    expect(created.status, created.text).toBe(200);
    const id = (created.body as Envelope).data.id;
    const kinds = await t.db.query<{ kind: string }>('SELECT kind FROM organization_address WHERE organization_id = $1', [id]);
    expect(kinds).toEqual([{ kind: 'postal' }]);
    const got = await api.v2('GET', `/crm/organization/${id}`);
    expect((got.body as Envelope).data.interests).toEqual([expect.objectContaining({ id: interest })]);
  });

  it('the references of a write are checked in one statement, whatever the number of tables', async () => {
    const body = {
      ...BODY(2),
      relation_type: { id: await referenceId('relation_type') },
      industry: { id: await referenceId('industry') },
      organizationsize: { id: await referenceId('organization_size') },
    };
    const { answer, statements } = await statementsOf(() => api.v2('POST', '/crm/organization', body));
    expect(answer.status, answer.text).toBe(200);
    const tx = transactionWith(statements, /INSERT INTO ("public"\.)?"organization" /);
    const checks = tx.filter(
      (s) => /UNION ALL/.test(s) || /^SELECT id FROM "(relation_type|industry|organization_size)"/.test(s),
    );
    expect(checks).toHaveLength(1);
    expect(tx.length, tx.join('\n')).toBeLessThanOrEqual(9);
  });

  it('a reference of another environment is refused with the others, in one answer', async () => {
    await t.environment('elsewhere');
    const foreign = (
      await t.db.query<{ id: string }>(
        `SELECT r.id FROM industry r JOIN environment e ON e.id = r.environment_id WHERE e.name = 'elsewhere' LIMIT 1`,
      )
    )[0]?.id;
    expect(foreign).toBeTruthy();
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM event');
    const refused = await api.v2('POST', '/crm/organization', {
      ...BODY(3),
      industry: { id: foreign },
      relation_type: { id: 'relationtype:nope' },
    });
    expect(refused.status).toBe(400);
    const errors = (refused.body as Envelope).errors ?? [];
    expect(errors.join(' ')).toContain('industry');
    expect(errors.join(' ')).toContain('relation_type');
    expect(await t.db.query('SELECT 1 FROM organization WHERE name = $1', ['Counted 3 BV'])).toHaveLength(0);
    expect(await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM event')).toEqual(before);
  });

  it('a create refused by its custom-field values leaves neither the row nor an event', async () => {
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM event');
    const refused = await api.v2('POST', '/crm/organization', { ...BODY(4), custom_fields: [{ name: 'nope', value: 'x' }] });
    expect(refused.status).toBe(400);
    expect(await t.db.query('SELECT 1 FROM organization WHERE name = $1', ['Counted 4 BV'])).toHaveLength(0);
    expect(await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM event')).toEqual(before);
  });

  it('an organization update is one transaction of at most 7 statements in two round trips, its event inside it', async () => {
    const created = await api.v2('POST', '/crm/organization', BODY(5));
    const id = (created.body as Envelope).data.id;
    const { answer, statements } = await statementsOf(() =>
      api.v2('PUT', `/crm/organization/${id}`, {
        email: 'new@example.com',
        visiting_address: { line_1: 'Main 2', locality: 'Zeist' },
        custom_fields: [{ name: 'tier', value: 'silver' }],
      }),
    );
    expect(answer.status, answer.text).toBe(200);
    const tx = transactionWith(statements, /^\s*UPDATE ("public"\.)?"organization" /);
    // BEGIN, the lock, the row, its address, the value replaced, the event, COMMIT
    expect(tx.length, tx.join('\n')).toBeLessThanOrEqual(7);
    // in two round trips: BEGIN with the lock; the writes and the event with the COMMIT
    expect(roundTripsOf(statements, /^\s*UPDATE ("public"\.)?"organization" /)).toBe(2);
    expect(tx.filter((s) => /FROM custom_field f/.test(s) && !/^INSERT INTO "?event"? /i.test(s))).toHaveLength(0);
    // the address replaced in place: one visiting address, the new one
    const addresses = await t.db.query<{ line_1: string; locality: string; postal_code: string | null }>(
      `SELECT line_1, locality, postal_code FROM organization_address WHERE organization_id = $1 AND kind = 'visiting'`,
      [id],
    );
    expect(addresses).toEqual([{ line_1: 'Main 2', locality: 'Zeist', postal_code: null }]);
    const [event] = await t.db.query<{ data: { email: string; customFields: { name: string; value: string }[] } }>(
      `SELECT data FROM event WHERE entity_id = $1 AND type = 'organization.updated'`,
      [id],
    );
    expect(event?.data.email).toBe('new@example.com');
    expect(event?.data.customFields.find((f) => f.name === 'tier')?.value).toBe('silver');
  });

  it('a custom field defined or removed just before a write is known to that write at once (remembered definitions are forgotten on change)', async () => {
    const defined = await api.v2('POST', '/crm/organizationcustomfields', { name: 'fresh', label: 'Fresh', type: 'text' });
    expect(defined.status, defined.text).toBe(200);
    const created = await api.v2('POST', '/crm/organization', { ...BODY(6), custom_fields: [{ name: 'fresh', value: 'yes' }] });
    expect(created.status, created.text).toBe(200);
    const id = (created.body as Envelope).data.id;
    const got = await api.v2('GET', `/crm/organization/${id}`);
    const fields = (got.body as Envelope).data.custom_fields as { name: string; value: unknown }[];
    expect(fields.find((f) => f.name === 'fresh')?.value).toBe('yes');
    const fieldId = (defined.body as Envelope).data.id;
    expect((await api.v2('DELETE', `/crm/organizationcustomfields/${fieldId}`)).status).toBe(200);
    const refused = await api.v2('POST', '/crm/organization', { ...BODY(7), custom_fields: [{ name: 'fresh', value: 'no' }] });
    expect(refused.status, refused.text).toBe(400);
    expect((refused.body as Envelope).errors?.join(' ')).toContain('fresh');
    expect(await t.db.query('SELECT 1 FROM organization WHERE name = $1', ['Counted 7 BV'])).toHaveLength(0);
  });

  it('a v3 create command answers the entity its event was made from, with no read after the commit', async () => {
    const { answer, statements } = await statementsOf(() =>
      api.v3('POST', '/employee.create', { name: 'Counted Employee', function: 'Designer' }),
    );
    expect(answer.status, answer.text).toBe(201);
    const tx = transactionWith(statements, /INSERT INTO ("public"\.)?"employee" /);
    const insert = statements.find((s) => /INSERT INTO ("public"\.)?"employee" /.test(s.sql)) as LoggedStatement;
    const commit = statements.findIndex(
      (s, n) => n > statements.indexOf(insert) && s.connection === insert.connection && s.sql === 'COMMIT',
    );
    expect(tx.length).toBeGreaterThan(2);
    expect(statements.slice(commit + 1)).toEqual([]);
    const id = (answer.body as { id: string }).id;
    const got = await api.v3('GET', `/employee.get/${id}`);
    expect(answer.body).toEqual(got.body);
    const [event] = await t.db.query<{ data: { id: string; name: string } }>(
      `SELECT data FROM event WHERE entity_id = $1 AND type = 'employee.created'`,
      [id],
    );
    expect(event?.data).toMatchObject({ id, name: 'Counted Employee' });
  });
});

describe('an event whose payload PostgreSQL makes from the row', () => {
  it('carries what the process makes from the row it reads: every relation, both addresses, interests, the relation manager, custom fields with their group, options and display value', async () => {
    const models = (await api.v2('GET', '/customfields/model')).body as { data: { id: string; label: string }[] };
    const model = models.data.find((m) => m.label === 'Organization');
    const group = await api.v2('POST', '/customfields/group', { name: 'Finance', position: 1, model: { id: model?.id } });
    expect(group.status, group.text).toBe(200);
    const colour = await api.v2('POST', '/crm/organizationcustomfields', {
      name: 'colour',
      label: 'Colour',
      type: 'dropdown',
      custom_field_group_id: (group.body as Envelope).data.id,
    });
    expect(colour.status, colour.text).toBe(200);
    const colourId = (colour.body as Envelope).data.id;
    for (const [label, position] of [
      ['Red', 2],
      ['Blue', 1],
    ] as const) {
      expect((await api.v2('POST', '/customfields/option', { customfield_id: colourId, label, position })).status).toBe(200);
    }
    const manager = await api.v2('POST', '/hrm/employee', {
      name: 'Event Manager',
      function: 'Lead',
      work_email: 'lead@example.com',
    });
    expect(manager.status, manager.text).toBe(200);
    const body = {
      ...BODY(20),
      name: 'Made by "PostgreSQL" \\ BV ✓',
      relation_type: { id: await referenceId('relation_type') },
      industry: { id: await referenceId('industry') },
      organizationsize: { id: await referenceId('organization_size') },
      relation_manager: { id: (manager.body as Envelope).data.id },
      postal_address: { line_1: 'Box 1', locality: 'Zeist', country_code: 'NL' },
      interests: [{ id: await referenceId('interest') }],
      custom_fields: [
        { name: 'tier', value: 'gold' },
        { name: 'colour', value: 'Red' },
      ],
    };
    const created = await api.v2('POST', '/crm/organization', body);
    expect(created.status, created.text).toBe(200);
    const id = (created.body as Envelope).data.id;
    const [env] = await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'counted'`);
    // what the process makes of the row it reads (the path of a write that answers the row)
    const made = async () => {
      const [row] = await organization.loader.byIds(tenantSql(t.service.database.prisma, env?.id as string), [id]);
      return JSON.parse(entityEventData(organization, row, id).text) as Record<string, unknown>;
    };
    const eventData = async (type: string) =>
      (
        await t.db.query<{ data: Record<string, unknown> }>(`SELECT data FROM event WHERE entity_id = $1 AND type = $2`, [
          id,
          type,
        ])
      )[0]?.data;
    const createdEvent = await eventData('organization.created');
    const expected = await made();
    expect(createdEvent).toEqual(expected);
    // every part is there to compare
    expect(expected).toMatchObject({
      relationType: expect.objectContaining({ id: body.relation_type.id }),
      industry: expect.objectContaining({ id: body.industry.id }),
      organizationSize: expect.objectContaining({ id: body.organizationsize.id }),
      relationManager: expect.objectContaining({
        name: 'Event Manager',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      }),
      visitingAddress: expect.objectContaining({ line1: 'Main 1' }),
      postalAddress: expect.objectContaining({ line1: 'Box 1' }),
      interests: [expect.objectContaining({ id: body.interests[0]?.id })],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const fields = expected.customFields as { name: string; displayValue: string | null; group: unknown; options: unknown[] }[];
    expect(fields.find((f) => f.name === 'colour')).toMatchObject({
      displayValue: 'Red',
      group: expect.objectContaining({ name: 'Finance' }),
    });
    expect(fields.find((f) => f.name === 'colour')?.options).toHaveLength(2);
    // and after an update that empties some of it
    const updated = await api.v2('PUT', `/crm/organization/${id}`, {
      postal_address: null,
      interests: [],
      custom_fields: [{ name: 'colour', value: null }],
    });
    expect(updated.status, updated.text).toBe(200);
    expect(await eventData('organization.updated')).toEqual(await made());
  });
});
