import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, list, post } from './support/crm.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';

/** sales/sales through v2: the reference shape, custom fields, relations, linked projects, duplicate. */

let t: TestService;
let acme: ApiClient;
let other: ApiClient;
const ids: Record<string, string> = {};

type Sale = Record<string, unknown> & {
  id: string;
  custom_fields: Record<string, unknown>[];
  linked_projects: Record<string, unknown>[];
};

const V2_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

async function v3Create(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await acme.v3('POST', path, body);
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
}

async function getSale(id: string, client: ApiClient = acme): Promise<Sale> {
  const res = await client.v2('GET', `/sales/sales/${encodeURIComponent(id)}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as Envelope<Sale>).data;
}

async function put(id: string, body: Record<string, unknown>) {
  return acme.v2('PUT', `/sales/sales/${encodeURIComponent(id)}`, body);
}

async function saleIds(query: string): Promise<string[]> {
  return (await list<{ id: string }>(acme, `/sales/sales?${query}`)).map((s) => s.id);
}

const errorsOf = (res: { body: unknown }) => ((res.body as Envelope).errors ?? []).join(' ');

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  other = await t.environment('other');
  const env = (await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`))[0]?.id;
  // HRM owns employees; one is put in place directly
  await t.db.query(
    `INSERT INTO employee (id, environment_id, name, work_email, updated_at) VALUES ('employee:sales1', $1, 'Sam Seller', 'sam@acme.test', now())`,
    [env],
  );
  ids.employee = 'employee:sales1';
  ids.org = await post(acme, '/crm/organization', { name: 'Acme Buyer BV', relation_number: 'R-100' });
  ids.org2 = await post(acme, '/crm/organization', { name: 'Second Buyer BV' });
  ids.person = await post(acme, '/crm/person', {
    first_name: 'Petra',
    family_name: 'Prospect',
    relation_number: 'R-200',
    linked_as_contact_to_organization: [{ organization_id: ids.org, work_function: 'Buyer' }],
  });
  ids.contact = (
    await t.db.query<{ id: string }>(`SELECT id FROM contact_person WHERE person_id = $1 AND organization_id = $2`, [
      ids.person,
      ids.org,
    ])
  )[0]?.id as string;
  ids.otherOrg = await post(other, '/crm/organization', { name: 'Other Env BV' });

  // projects for linked_projects: one in execution with a service, one in acquisition with an acquisition service, one bare
  ids.execProject = await post(acme, '/projects/project', { name: 'Build the shop', project_number: 'P-1' });
  await v3Create('/projectService.create', { projectId: ids.execProject, name: 'Build', invoiceMethod: 'fixed_price' });
  ids.acqProject = await post(acme, '/projects/project', { name: 'Pitch', project_number: 'P-2', phase: 'acquisition' });
  await v3Create('/projectService.acquisition.create', { projectId: ids.acqProject, name: 'Pitch work' });
  ids.bareProject = await post(acme, '/projects/project', { name: 'Bare' });
  ids.otherProject = await post(other, '/projects/project', { name: 'Not yours' });

  const field = await post(acme, '/sales/salescustomfields', { name: 'segment', label: 'Segment', type: 'dropdown' });
  await post(acme, '/customfields/option', { customfield_id: field, label: 'Enterprise', value: 'ent' });
  await post(acme, '/customfields/option', { customfield_id: field, label: 'Small business', value: 'smb' });
  await post(acme, '/sales/salescustomfields', { name: 'region', label: 'Region', type: 'text' });
});
afterAll(() => t?.stop());

describe('sales/sales CRUD in the reference shape (GetSales, PostSales)', () => {
  it('POST answers the new id; GET /{id} shows every GetSales field, the relation and the responsible employee', async () => {
    const id = await post(acme, '/sales/sales', {
      subject: 'Webshop rebuild',
      organization_id: ids.org,
      contact_id: ids.contact,
      responsible_employee_id: ids.employee,
      start_date: '2026-03-01',
      expected_closing_date: '2026-04-30 00:00:00',
      expected_revenue: 12500.5,
      chance_to_score: 60,
      note: 'Warm lead',
    });
    expect(id).toMatch(/^sale:[0-9a-f]{32}$/);
    const s = await getSale(id);
    expect(s).toMatchObject({
      id,
      subject: 'Webshop rebuild',
      organization_id: ids.org,
      organization: { id: ids.org, name: 'Acme Buyer BV', relation_number: 'R-100' },
      person_id: null,
      person: null,
      contact_id: ids.contact,
      responsible_employee: { id: ids.employee, name: 'Sam Seller', person_id: null },
      start_date: '2026-03-01',
      expected_closing_date: '2026-04-30',
      expected_revenue: 12500.5,
      chance_to_score: 60,
      note: 'Warm lead',
      progress: null,
      source: null,
      status: null,
      reason: null,
      lost_to_competitor: null,
      teams: [],
      divergent_payment_term_id: null,
      linked_projects: [],
    });
    expect(s.created_at).toMatch(V2_DATE_TIME);
    expect(s.updated_at).toMatch(V2_DATE_TIME);
    expect(s.custom_fields.map((f) => f.name)).toEqual(['segment', 'region']);
  });

  it('PUT changes only the fields it names; DELETE removes the sale, its custom-field values and its project links', async () => {
    const id = await post(acme, '/sales/sales', {
      subject: 'Short lived',
      person_id: ids.person,
      note: 'keep me',
      linked_project_ids: [ids.bareProject],
      custom_fields: [{ name: 'region', value: 'North' }],
    });
    expect((await put(id, { subject: 'Renamed', chance_to_score: 10 })).status).toBe(200);
    expect(await getSale(id)).toMatchObject({ subject: 'Renamed', chance_to_score: 10, note: 'keep me', person_id: ids.person });
    const del = await acme.v2('DELETE', `/sales/sales/${id}`);
    expect(del.status, del.text).toBe(200);
    expect((await acme.v2('GET', `/sales/sales/${id}`)).status).toBe(404);
    expect(await t.db.query('SELECT count(*)::int AS n FROM custom_field_value WHERE entity_id = $1', [id])).toEqual([{ n: 0 }]);
    expect(await t.db.query('SELECT count(*)::int AS n FROM sale_project WHERE sale_id = $1', [id])).toEqual([{ n: 0 }]);
    const events = await t.db.query<{ type: string }>('SELECT type FROM event WHERE entity_id = $1 ORDER BY seq', [id]);
    expect(events.map((e) => e.type)).toEqual(['sale.created', 'sale.updated', 'sale.deleted']);
  });

  it('the list filters, sorts and counts like every v2 collection (nested organization.name, relation ids)', async () => {
    const a = await post(acme, '/sales/sales', { subject: 'List Alpha', organization_id: ids.org2, expected_revenue: 100 });
    const b = await post(acme, '/sales/sales', { subject: 'List Beta', organization_id: ids.org2, expected_revenue: 300 });
    expect(await saleIds('q[organization.name]=second*&sort=-expected_revenue')).toEqual([b, a]);
    expect(await saleIds(`q[organization_id]=${ids.org2}&q[expected_revenue][gt]=200`)).toEqual([b]);
    const res = await acme.v2('GET', '/sales/sales?q[subject]=List*&metadata=count&limit=1');
    expect((res.body as Envelope).metadata).toEqual({ count: 2 });
  });

  it('rights: module sales; read may list and read, not write; without the right 403', async () => {
    const reader = await t.user('acme', 'sales-reader@acme.test', { sales: 'read' });
    const outsider = await t.user('acme', 'no-sales@acme.test', { crm: 'write', projects: 'write' });
    const id = await post(acme, '/sales/sales', { subject: 'Guarded', organization_id: ids.org });
    expect((await reader.v2('GET', `/sales/sales/${id}`)).status).toBe(200);
    expect((await reader.v2('POST', '/sales/sales', { subject: 'No', organization_id: ids.org })).status).toBe(403);
    expect((await reader.v2('POST', `/sales/sales/${id}/duplicate`, {})).status).toBe(403);
    expect((await outsider.v2('GET', '/sales/sales')).status).toBe(403);
    expect((await outsider.v2('GET', '/sales/salescustomfields')).status).toBe(403);
  });
});

describe('custom fields on sales (contract: custom_fields on sales reads; filtering supported on sales)', () => {
  it('values written on POST and PUT are read back with display_value; null clears a value', async () => {
    const id = await post(acme, '/sales/sales', {
      subject: 'Custom',
      organization_id: ids.org,
      custom_fields: [
        { name: 'segment', value: 'ent' },
        { name: 'region', value: 'East' },
      ],
    });
    const s = await getSale(id);
    expect(s.custom_fields.find((f) => f.name === 'segment')).toMatchObject({
      value: 'ent',
      display_value: 'Enterprise',
      label: 'Segment',
      mandatory: false,
    });
    expect(s.custom_fields.find((f) => f.name === 'region')).toMatchObject({ value: 'East', display_value: 'East' });

    expect((await put(id, { custom_fields: [{ name: 'segment', value: 'smb' }] })).status).toBe(200);
    const changed = await getSale(id);
    expect(changed.custom_fields.find((f) => f.name === 'segment')).toMatchObject({
      value: 'smb',
      display_value: 'Small business',
    });
    // a field the PUT leaves out keeps its value
    expect(changed.custom_fields.find((f) => f.name === 'region')).toMatchObject({ value: 'East' });

    expect((await put(id, { custom_fields: [{ name: 'region', value: null }] })).status).toBe(200);
    expect((await getSale(id)).custom_fields.find((f) => f.name === 'region')).toMatchObject({
      value: null,
      display_value: null,
    });
  });

  it('a value outside the options or an unknown field name answers 400 naming it; nothing is stored', async () => {
    const before = await databaseFingerprint(t.db);
    const bad = await acme.v2('POST', '/sales/sales', {
      subject: 'Bad custom',
      organization_id: ids.org,
      custom_fields: [{ name: 'segment', value: 'gov' }],
    });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad)).toContain('segment');
    const unknown = await acme.v2('POST', '/sales/sales', {
      subject: 'Bad custom',
      organization_id: ids.org,
      custom_fields: [{ name: 'nope', value: 'x' }],
    });
    expect(unknown.status).toBe(400);
    expect(errorsOf(unknown)).toContain('nope');
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('a mandatory sale custom field is required on POST and cannot be emptied on PUT; nothing is stored', async () => {
    const field = await post(acme, '/sales/salescustomfields', {
      name: 'budget_holder',
      label: 'Budget holder',
      type: 'text',
      mandatory: true,
    });
    try {
      const before = await t.db.query('SELECT count(*)::int AS n FROM sale');
      const missing = await acme.v2('POST', '/sales/sales', { subject: 'No holder', organization_id: ids.org });
      expect(missing.status).toBe(400);
      expect(errorsOf(missing)).toContain('budget_holder');
      expect(await t.db.query('SELECT count(*)::int AS n FROM sale')).toEqual(before);
      const id = await post(acme, '/sales/sales', {
        subject: 'With holder',
        organization_id: ids.org,
        custom_fields: [{ name: 'budget_holder', value: 'CFO' }],
      });
      const emptied = await put(id, { custom_fields: [{ name: 'budget_holder', value: '' }] });
      expect(emptied.status).toBe(400);
      expect(errorsOf(emptied)).toContain('budget_holder');
      expect((await getSale(id)).custom_fields.find((f) => f.name === 'budget_holder')).toMatchObject({ value: 'CFO' });
      // a PUT that does not name the field leaves it as it is
      expect((await put(id, { note: 'other change' })).status).toBe(200);
    } finally {
      expect((await acme.v2('DELETE', `/sales/salescustomfields/${field}`)).status).toBe(200);
    }
  });

  it('q[custom_fields.<name>] filters sales, exactly, with wildcards and with null', async () => {
    const north = await post(acme, '/sales/sales', {
      subject: 'CF North',
      organization_id: ids.org,
      custom_fields: [{ name: 'region', value: 'North-West' }],
    });
    const south = await post(acme, '/sales/sales', {
      subject: 'CF South',
      organization_id: ids.org,
      custom_fields: [{ name: 'region', value: 'South' }],
    });
    const none = await post(acme, '/sales/sales', { subject: 'CF None', organization_id: ids.org });
    expect(await saleIds('q[subject]=CF*&q[custom_fields.region]=South')).toEqual([south]);
    expect(await saleIds('q[subject]=CF*&q[custom_fields.region]=north*')).toEqual([north]);
    expect(await saleIds('q[subject]=CF*&q[custom_fields.region]=*west')).toEqual([north]);
    expect(await saleIds('q[subject]=CF*&q[custom_fields.region]=null')).toEqual([none]);
    expect(await saleIds('q[subject]=CF*&q[custom_fields.region]=*')).toEqual([north, south]);
  });

  it('sales/salescustomfields and sales/salescustomfieldgroups list the sale definitions only', async () => {
    await post(acme, '/projects/projectcustomfields', { name: 'project_only', label: 'Project only', type: 'text' });
    const fields = await list<{ name: string; mandatory: boolean; options: unknown[] }>(acme, '/sales/salescustomfields');
    expect(fields.map((f) => f.name)).toEqual(['segment', 'region']);
    expect(fields[0]?.options).toHaveLength(2);
    const models = await list<{ id: string; label: string }>(acme, '/customfields/model');
    const saleModel = models.find((m) => m.label === 'Sale')?.id;
    const group = await post(acme, '/customfields/group', { name: 'Deal facts', model: { id: saleModel } });
    const groups = await list<{ id: string; name: string }>(acme, '/sales/salescustomfieldgroups');
    expect(groups.map((g) => g.id)).toEqual([group]);
  });
});

describe('sales relation switch on PUT (contract 2023-06)', () => {
  it('person_id switches an organization sale to that person, clearing organization and contact; organization_id switches back', async () => {
    const id = await post(acme, '/sales/sales', { subject: 'Switch', organization_id: ids.org, contact_id: ids.contact });
    expect((await put(id, { person_id: ids.person })).status).toBe(200);
    expect(await getSale(id)).toMatchObject({
      person_id: ids.person,
      person: { id: ids.person, full_name: 'Petra Prospect', relation_number: 'R-200' },
      organization_id: null,
      organization: null,
      contact_id: null,
    });
    expect((await put(id, { organization_id: ids.org2 })).status).toBe(200);
    expect(await getSale(id)).toMatchObject({ organization_id: ids.org2, person_id: null, person: null, contact_id: null });
    // the same organization again keeps its contact; a contact can be given with the switch
    expect((await put(id, { organization_id: ids.org, contact_id: ids.contact })).status).toBe(200);
    expect((await put(id, { organization_id: ids.org, subject: 'Switch 2' })).status).toBe(200);
    expect(await getSale(id)).toMatchObject({ organization_id: ids.org, contact_id: ids.contact, subject: 'Switch 2' });
  });

  it('a sale is for one relation: both ids, none on POST, or nulling the only one answer 400; nothing changes', async () => {
    const id = await post(acme, '/sales/sales', { subject: 'One relation', organization_id: ids.org });
    const before = await databaseFingerprint(t.db);
    const both = await put(id, { organization_id: ids.org, person_id: ids.person });
    expect(both.status).toBe(400);
    expect(errorsOf(both)).toContain('person_id');
    const nulled = await put(id, { organization_id: null });
    expect(nulled.status).toBe(400);
    expect(errorsOf(nulled)).toContain('organization_id');
    const none = await acme.v2('POST', '/sales/sales', { subject: 'Nobody' });
    expect(none.status).toBe(400);
    expect(errorsOf(none)).toContain('organization_id');
    const contactOfOther = await put(id, { organization_id: ids.org2, contact_id: ids.contact });
    expect(contactOfOther.status).toBe(400);
    expect(errorsOf(contactOfOther)).toContain('contact_id');
    const contactOnPerson = await put(id, { person_id: ids.person, contact_id: ids.contact });
    expect(contactOnPerson.status).toBe(400);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});

describe('divergent_payment_term_id on PUT sales/sales/{id} (contract 2026-03)', () => {
  it('names one of the environment’s payment terms: read back, kept by a PUT that leaves it out, and cleared by null', async () => {
    const id = await post(acme, '/sales/sales', { subject: 'Payment term', organization_id: ids.org });
    const term = (
      await t.db.query<{ id: string }>(
        `SELECT p.id FROM payment_term p JOIN environment e ON e.id = p.environment_id WHERE e.name = 'acme' AND p.days = 30`,
      )
    )[0]?.id as string;
    expect((await put(id, { divergent_payment_term_id: term })).status).toBe(200);
    expect((await getSale(id)).divergent_payment_term_id).toBe(term);
    expect((await put(id, { note: 'unrelated' })).status).toBe(200);
    expect((await getSale(id)).divergent_payment_term_id).toBe(term);
    expect(await saleIds(`q[divergent_payment_term_id]=${encodeURIComponent(term)}`)).toEqual([id]);
    expect((await put(id, { divergent_payment_term_id: 'paymentterm:30days' })).status).toBe(400);
    expect((await put(id, { divergent_payment_term_id: null })).status).toBe(200);
    expect((await getSale(id)).divergent_payment_term_id).toBeNull();
    const wrong = await put(id, { divergent_payment_term_id: 30 });
    expect(wrong.status).toBe(400);
    expect(errorsOf(wrong)).toContain('divergent_payment_term_id');
  });
});

describe('linked_projects on sales/sales reads (contract 2025-12, 2026-01, 2026-02)', () => {
  it('each linked project has id, name, project_number, created_at, project_status, has_services, is_pending_for_sale_approval, has_acquisition_service', async () => {
    const id = await post(acme, '/sales/sales', {
      subject: 'Linked',
      organization_id: ids.org,
      linked_project_ids: [ids.execProject, ids.acqProject, ids.bareProject, ids.execProject],
    });
    const s = await getSale(id);
    const [exec, acq, bare] = s.linked_projects;
    expect(s.linked_projects).toHaveLength(3);
    for (const p of s.linked_projects) {
      expect(Object.keys(p).sort()).toEqual(
        [
          'created_at',
          'has_acquisition_service',
          'has_services',
          'id',
          'is_pending_for_sale_approval',
          'name',
          'project_number',
          'project_status',
        ].sort(),
      );
      // decision: the v2 date-time format (colons), not the contract's literal "HH-MM-SS"; see README
      expect(p.created_at).toMatch(V2_DATE_TIME);
      expect(p.project_status).toEqual({ id: expect.any(String), label: 'tab_pactive', color: expect.anything() });
    }
    expect(exec).toMatchObject({
      id: ids.execProject,
      name: 'Build the shop',
      project_number: 'P-1',
      has_services: true,
      is_pending_for_sale_approval: false,
      has_acquisition_service: false,
    });
    expect(acq).toMatchObject({
      id: ids.acqProject,
      project_number: 'P-2',
      has_services: true,
      is_pending_for_sale_approval: true,
      has_acquisition_service: true,
    });
    expect(bare).toMatchObject({
      id: ids.bareProject,
      project_number: null,
      has_services: false,
      is_pending_for_sale_approval: false,
      has_acquisition_service: false,
    });
  });

  it('approving the acquisition ends is_pending_for_sale_approval; the list shows the same entries as the single read', async () => {
    const project = await post(acme, '/projects/project', { name: 'To approve', phase: 'acquisition' });
    const id = await post(acme, '/sales/sales', {
      subject: 'Approve me',
      organization_id: ids.org,
      linked_project_ids: [project],
    });
    expect((await getSale(id)).linked_projects[0]).toMatchObject({ is_pending_for_sale_approval: true });
    const approve = await acme.v3('POST', '/project.acquisition.approve', { projectId: project });
    expect(approve.status, approve.text).toBe(200);
    const single = await getSale(id);
    expect(single.linked_projects[0]).toMatchObject({ is_pending_for_sale_approval: false });
    const listed = await list<Sale>(acme, `/sales/sales?q[id]=${id}`);
    expect(listed[0]?.linked_projects).toEqual(single.linked_projects);
  });

  it('PUT linked_project_ids replaces the set, [] empties it, leaving it out keeps it; q[linked_projects.id] filters', async () => {
    const id = await post(acme, '/sales/sales', {
      subject: 'Relink',
      organization_id: ids.org,
      linked_project_ids: [ids.bareProject],
    });
    expect(await saleIds(`q[subject]=Relink&q[linked_projects.id]=${ids.bareProject}`)).toEqual([id]);
    expect((await put(id, { linked_project_ids: [ids.acqProject] })).status).toBe(200);
    expect((await getSale(id)).linked_projects.map((p) => p.id)).toEqual([ids.acqProject]);
    expect((await put(id, { note: 'no change to links' })).status).toBe(200);
    expect((await getSale(id)).linked_projects.map((p) => p.id)).toEqual([ids.acqProject]);
    expect((await put(id, { linked_project_ids: [] })).status).toBe(200);
    expect((await getSale(id)).linked_projects).toEqual([]);
  });

  it('PUT linked_project_ids in another order reads back in that order, the links it keeps as well', async () => {
    const id = await post(acme, '/sales/sales', {
      subject: 'Reordered links',
      organization_id: ids.org,
      linked_project_ids: [ids.bareProject, ids.acqProject],
    });
    const order = async () => (await getSale(id)).linked_projects.map((p) => p.id);
    expect(await order()).toEqual([ids.bareProject, ids.acqProject]);
    expect((await put(id, { linked_project_ids: [ids.acqProject, ids.execProject, ids.bareProject] })).status).toBe(200);
    expect(await order()).toEqual([ids.acqProject, ids.execProject, ids.bareProject]);
  });

  it('a linked project that is deleted afterwards is no longer shown', async () => {
    const project = await post(acme, '/projects/project', { name: 'Gone soon' });
    const id = await post(acme, '/sales/sales', {
      subject: 'Loses a project',
      organization_id: ids.org,
      linked_project_ids: [project],
    });
    expect((await acme.v2('DELETE', `/projects/project/${project}`)).status).toBe(200);
    expect((await getSale(id)).linked_projects).toEqual([]);
  });
});

describe('POST sales/sales/{id}/duplicate (copy_latest_quote, 2025-01)', () => {
  it('the copy has a new id, the same fields and custom-field values, and its own sale.created event', async () => {
    const id = await post(acme, '/sales/sales', {
      subject: 'Original',
      organization_id: ids.org,
      contact_id: ids.contact,
      responsible_employee_id: ids.employee,
      start_date: '2026-05-01',
      expected_closing_date: '2026-06-30',
      expected_revenue: 999.99,
      chance_to_score: 40,
      note: 'copy me',
      linked_project_ids: [ids.bareProject],
      custom_fields: [
        { name: 'segment', value: 'ent' },
        { name: 'region', value: 'West' },
      ],
    });
    const term = (
      await t.db.query<{ id: string }>(
        `SELECT p.id FROM payment_term p JOIN environment e ON e.id = p.environment_id WHERE e.name = 'acme' AND p.days = 30`,
      )
    )[0]?.id as string;
    expect((await put(id, { divergent_payment_term_id: term })).status).toBe(200);
    // the sale has no quote: the flag is accepted and nothing more is copied (sales-full tests the copied quote)
    const res = await acme.v2('POST', `/sales/sales/${id}/duplicate`, { copy_latest_quote: true });
    expect(res.status, res.text).toBe(200);
    const copyId = (res.body as Envelope<{ id: string }>).data.id;
    expect(copyId).toMatch(/^sale:[0-9a-f]{32}$/);
    expect(copyId).not.toBe(id);

    const original = await getSale(id);
    const copy = await getSale(copyId);
    const same = (s: Sale) => {
      const {
        id: _i,
        created_at: _c,
        updated_at: _u,
        created: _cl,
        modified: _ml,
        timeline_email_address: _tl,
        linked_projects: _l,
        ...rest
      } = s as Sale & Record<string, unknown>;
      return rest;
    };
    expect(same(copy)).toEqual(same(original));
    expect(copy).toMatchObject({ subject: 'Original', divergent_payment_term_id: term, contact_id: ids.contact });
    // projects stay linked to the sale they belong to
    expect(copy.linked_projects).toEqual([]);
    expect(original.linked_projects.map((p) => p.id)).toEqual([ids.bareProject]);

    const events = await t.db.query<{ type: string; data: { subject: string; customFields: unknown[] } }>(
      'SELECT type, data FROM event WHERE entity_id = $1',
      [copyId],
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.type).toBe('sale.created');
    expect(events[0]?.data.subject).toBe('Original');
    expect(events[0]?.data.customFields).toContainEqual({ name: 'segment', value: 'ent' });
  });

  it('is_new_* flags take the values sent beside them; start_date and end_date set the copy’s dates; an empty body ({}) copies as is', async () => {
    const id = await post(acme, '/sales/sales', { subject: 'Base', organization_id: ids.org, contact_id: ids.contact });
    const res = await acme.v2('POST', `/sales/sales/${id}/duplicate`, {
      is_new_subject: true,
      subject: 'Base (2027)',
      is_new_responsible_employee: true,
      responsible_employee_id: ids.employee,
      is_new_organization_or_person: true,
      person_id: ids.person,
      start_date: '2027-01-01',
      end_date: '2027-03-31',
      copy_latest_quote: false,
    });
    expect(res.status, res.text).toBe(200);
    const copy = await getSale((res.body as Envelope<{ id: string }>).data.id);
    expect(copy).toMatchObject({
      subject: 'Base (2027)',
      responsible_employee: { id: ids.employee },
      person_id: ids.person,
      organization_id: null,
      contact_id: null,
      start_date: '2027-01-01',
      expected_closing_date: '2027-03-31',
    });
    const plain = await acme.v2('POST', `/sales/sales/${id}/duplicate`, {});
    expect(plain.status, plain.text).toBe(200);
    expect(await getSale((plain.body as Envelope<{ id: string }>).data.id)).toMatchObject({
      subject: 'Base',
      organization_id: ids.org,
      contact_id: ids.contact,
    });
  });

  it('an unknown sale answers 404; a flag without its value, a wrong type or an unknown id answers 400; nothing changes', async () => {
    const id = await post(acme, '/sales/sales', { subject: 'Dup bad', organization_id: ids.org });
    const before = await databaseFingerprint(t.db);
    expect((await acme.v2('POST', '/sales/sales/sale:missing/duplicate', {})).status).toBe(404);
    const cases: [Record<string, unknown>, string][] = [
      [{ is_new_subject: true }, 'subject'],
      [{ is_new_organization_or_person: true }, 'organization_id'],
      [{ copy_latest_quote: 'yes' }, 'copy_latest_quote'],
      [{ is_new_responsible_employee: true, responsible_employee_id: 'employee:missing' }, 'responsible_employee_id'],
      [{ is_new_organization_or_person: true, organization_id: ids.otherOrg }, 'organization_id'],
      [{ start_date: 'soon' }, 'start_date'],
    ];
    for (const [body, field] of cases) {
      const res = await acme.v2('POST', `/sales/sales/${id}/duplicate`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as Envelope).data).toBeNull();
      expect(errorsOf(res), JSON.stringify(body)).toContain(field);
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});

describe('bad input to sales/sales answers 400 in the envelope and changes nothing', () => {
  const cases: [string, () => Record<string, unknown>, string][] = [
    ['subject missing', () => ({ organization_id: ids.org }), 'subject'],
    ['subject blank', () => ({ subject: '  ', organization_id: ids.org }), 'subject'],
    ['subject not a string', () => ({ subject: 12, organization_id: ids.org }), 'subject'],
    ['expected_revenue a string', () => ({ subject: 'S', organization_id: ids.org, expected_revenue: '10' }), 'expected_revenue'],
    ['chance_to_score above 100', () => ({ subject: 'S', organization_id: ids.org, chance_to_score: 101 }), 'chance_to_score'],
    ['chance_to_score not whole', () => ({ subject: 'S', organization_id: ids.org, chance_to_score: 1.5 }), 'chance_to_score'],
    ['start_date not a date', () => ({ subject: 'S', organization_id: ids.org, start_date: '2026-02-31' }), 'start_date'],
    ['unknown organization', () => ({ subject: 'S', organization_id: 'organization:missing' }), 'organization_id'],
    ['unknown person', () => ({ subject: 'S', person_id: 'person:missing' }), 'person_id'],
    ['another environment’s organization', () => ({ subject: 'S', organization_id: ids.otherOrg }), 'organization_id'],
    ['unknown contact', () => ({ subject: 'S', organization_id: ids.org, contact_id: 'contactperson:x' }), 'contact_id'],
    [
      'unknown employee',
      () => ({ subject: 'S', organization_id: ids.org, responsible_employee_id: 'employee:x' }),
      'responsible_employee_id',
    ],
    [
      'unknown project',
      () => ({ subject: 'S', organization_id: ids.org, linked_project_ids: ['project:missing'] }),
      'linked_project_ids',
    ],
    [
      'another environment’s project',
      () => ({ subject: 'S', organization_id: ids.org, linked_project_ids: [ids.otherProject] }),
      'linked_project_ids',
    ],
    [
      'linked_project_ids not a list',
      () => ({ subject: 'S', organization_id: ids.org, linked_project_ids: ids.bareProject }),
      'linked_project_ids',
    ],
    [
      'progress_id (not kept yet)',
      () => ({ subject: 'S', organization_id: ids.org, progress_id: 'salesprogress:1' }),
      'progress_id',
    ],
    [
      'custom_fields not a list',
      () => ({ subject: 'S', organization_id: ids.org, custom_fields: { region: 'x' } }),
      'custom_fields',
    ],
  ];

  it.each(cases)('POST: %s', async (_name, body, field) => {
    const before = await databaseFingerprint(t.db);
    const res = await acme.v2('POST', '/sales/sales', body());
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ data: null, debug: null });
    expect(errorsOf(res)).toContain(field);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it.each(cases.filter(([name]) => !name.startsWith('subject missing')))('PUT: %s', async (_name, body, field) => {
    const id = await post(acme, '/sales/sales', { subject: 'Target', organization_id: ids.org });
    const before = await databaseFingerprint(t.db);
    const res = await put(id, body());
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ data: null, debug: null });
    expect(errorsOf(res)).toContain(field);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('PUT, GET and DELETE of an unknown sale answer 404', async () => {
    expect((await put('sale:missing', { subject: 'x' })).status).toBe(404);
    expect((await acme.v2('GET', '/sales/sales/sale:missing')).status).toBe(404);
    expect((await acme.v2('DELETE', '/sales/sales/sale:missing')).status).toBe(404);
  });
});

describe('tenant isolation of sales', () => {
  it('another environment’s sale answers 404 to GET, PUT, DELETE and duplicate, and is not listed', async () => {
    const theirs = await post(other, '/sales/sales', { subject: 'Theirs', organization_id: ids.otherOrg });
    const before = await databaseFingerprint(t.db);
    expect((await acme.v2('GET', `/sales/sales/${theirs}`)).status).toBe(404);
    expect((await put(theirs, { subject: 'Mine now' })).status).toBe(404);
    expect((await acme.v2('DELETE', `/sales/sales/${theirs}`)).status).toBe(404);
    expect((await acme.v2('POST', `/sales/sales/${theirs}/duplicate`, {})).status).toBe(404);
    expect(await saleIds(`q[id]=${theirs}`)).toEqual([]);
    expect(await databaseFingerprint(t.db)).toEqual(before);
    expect((await getSale(theirs, other)).subject).toBe('Theirs');
    // and their custom-field definitions are their own
    expect(await list(other, '/sales/salescustomfields')).toEqual([]);
  });
});
