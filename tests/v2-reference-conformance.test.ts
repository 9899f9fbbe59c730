import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractValidator, referenceContract } from './support/contract.js';
import { type Envelope, post, referenceId } from './support/crm.js';
import { referenceData } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Issue 26: what real integrations see. Every area is seeded with real records through the
 * API (read-only resources through their tables), then every GET path of the reference
 * (../shared/reference/v2-contract.json) is called, and each answer's records are validated
 * DEEPLY against the reference's 200 schema: nested objects and arrays included, every
 * property the definition names present (null only where the value is really unset), each
 * of its type. The reference is Swagger 2.0, whose schemas are JSON Schema draft 4; the only
 * draft-4 specifics that differ from ajv's default draft (a boolean `exclusiveMaximum`, `id`)
 * do not occur in the file, and `format: float/double` is not JSON Schema: support/contract.ts
 * drops it. So ajv validates the file's schemas with draft-4 meaning.
 *
 * The deliberate differences are the table below: at most five, each with its reason.
 */
type Schema = Record<string, unknown> & { properties?: Record<string, Schema> };
/** A deliberate difference: the definitions' properties it replaces (null: not required), and why. */
type Difference = { at: Record<string, Schema | null>; reason: string };

export const DELIBERATE_DIFFERENCES: Difference[] = [
  {
    at: { 'GetLeave.hours': { type: 'number' }, 'GetAbsence.hours': { type: 'number' } },
    reason:
      'leave and absence are booked in decimal hours (a 4.5-hour half day of a part-timer); the reference says integer, and JSON clients parse both as a number',
  },
  {
    at: { 'LeaveBalance.last_change': { type: 'string' } },
    reason:
      'the date-time of the last change, in the v2 date-time form like every other date-time; the reference types it as a number (a count nobody can filter on)',
  },
  {
    at: { 'Contract.end_date': { type: 'string' } },
    reason: 'a contract ends on a date (YYYY-MM-DD), as start_date does; the reference types end_date as a boolean',
  },
  {
    at: {
      'GetSalesService.created_at': { type: 'string' },
      'GetSalesService.updated_at': { type: 'string' },
      'GetSalesService.invoice_method': { type: 'string', enum: ['FixedFee', 'Hours', 'Subscription'] },
    },
    reason:
      'the reference types the timestamps of a sales service as arrays of hour types (a copy slip: they are date-times as everywhere) and lists FixedFee only of its invoice methods',
  },
  {
    at: { 'GetHours.is_editable': null, 'GetHours.is_deletable': null },
    reason: 'the contract (2025-09, newer than the reference) shows is_editable and is_deletable only when select names them',
  },
];

const { validatorFor } = contractValidator((defs) => {
  for (const d of DELIBERATE_DIFFERENCES) {
    for (const [at, schema] of Object.entries(d.at)) {
      const [definition, property] = at.split('.') as [string, string];
      const props = (defs[definition] as Schema).properties as Record<string, Schema>;
      if (schema) props[property] = schema;
      else delete props[property];
    }
  }
});

/** The record definition a reference GET answers (the item's for a list); null when the file types no data. */
function recordDefinition(path: string): string | null {
  const ref = referenceContract.paths[path]?.get?.responses?.['200']?.schema?.$ref;
  if (!ref) return null;
  const result = referenceContract.definitions[ref.replace('#/definitions/', '')] as Schema | undefined;
  const data = result?.properties?.data as (Schema & { items?: Schema }) | undefined;
  const item = (data?.items?.$ref ?? data?.$ref) as string | undefined;
  return item ? item.replace('#/definitions/', '') : null;
}

/** GET paths of the reference, with the definition of their records. */
const referencePaths = Object.keys(referenceContract.paths)
  .filter((p) => referenceContract.paths[p]?.get)
  .map((p) => ({ path: p, definition: recordDefinition(p) }));

/** Paths the walk cannot call as is, and why (none of them is a difference of shape). */
const NOT_WALKED: Record<string, string> = {
  '/documents/download/{id}': 'answers the file itself, not a record (storage tests check it)',
  '/projects/project/{id}/planningBudget': 'the reference types no data (RestResult is not defined)',
  '/projects/service/{id}/planningBudget': 'the reference types no data (RestResult is not defined)',
  '/sales/converttoproject/{id}': 'a write by GET: converting the sale is checked in sales-full',
  '/projects/projectfilters': 'the reference types no data (RestResultFilters is not defined)',
  '/projects/projectfilters/{id}': 'the reference types no data (RestResultFilter is not defined)',
  '/sales/salesfilters': 'the reference types no data (RestResultFilters is not defined)',
  '/sales/salesfilters/{id}': 'the reference types no data (RestResultFilter is not defined)',
  '/sales/salesreason': 'the reference names a record it does not define (ResultSalesReason)',
  '/sales/salesreason/{id}': 'the reference names a record it does not define (ResultSalesReason)',
};

/** The collection whose rows give the id of a single-read path. */
const collectionOf = (p: string) =>
  p === '/hours/employeeexpense/{id}' ? '/hours/employeeexpenses' : p.replace(/\/\{[^}]+\}$/, '');

/** Query parameters a collection needs to answer rows (the reference requires them). */
const QUERY: Record<string, () => string> = {
  '/hours/submission': () => `?q[employee_id]=${enc(ids.employee)}&q[start_date]=2026-03-01&q[end_date]=2026-03-31`,
  '/hours/timesheetrow': () => `?q[employee_id]=${enc(ids.employee)}&q[start_date]=2026-03-02&q[end_date]=2026-03-08`,
  '/hours/timesheetrow/mostrecent': () => `?q[employee_id]=${enc(ids.employee)}&q[before_date]=2026-12-31`,
  '/projects/assignmentbudget': () => `?q[range_start]=2026-03-04&q[assignment_id]=${enc(ids.assignment)}`,
};

/** every record the walk validated, for the checks of nested values below */
const answers: { path: string; item: Row }[] = [];

/** Every object nested anywhere in a value (the value itself excluded). */
function nested(value: unknown, out: Record<string, unknown>[] = [], depth = 0): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const v of value) nested(v, out, depth + 1);
  else if (value && typeof value === 'object') {
    if (depth > 0) out.push(value as Record<string, unknown>);
    for (const v of Object.values(value)) nested(v, out, depth + 1);
  }
  return out;
}

const enc = (s: string | undefined) => encodeURIComponent(s ?? '');
let t: TestService;
let api: ApiClient;
const ids: Record<string, string> = {};
type Row = Record<string, unknown> & { id: string };

async function data<T = Row>(p: string): Promise<T> {
  const res = await api.v2('GET', p);
  expect(res.status, `${p}: ${res.text}`).toBe(200);
  return (res.body as Envelope<T>).data;
}

beforeAll(async () => {
  t = await startTestService();
  api = await t.environment('fidelity');
  const env = (await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'fidelity'`))[0]?.id as string;
  const ref = await referenceData(api);
  const [hourType, otherType] = ref.hourTypes.map((h) => h.id) as [string, string];
  const costType = ref.costTypes[0]?.id as string;

  // HRM
  ids.employee = await post(api, '/hrm/employee', { name: 'Fiona Fidelity', work_email: 'fiona@fidelity.test' });
  await t.db.query(
    `INSERT INTO contract (id, environment_id, employee_id, start_date, end_date, parttime_percentage, days_off, updated_at)
     VALUES ('contract:fidelity', $1, $2, '2026-01-01', '2026-12-31', 100, 25, now())`,
    [env, ids.employee],
  );
  await post(api, '/hrm/timetable', {
    employee_id: ids.employee,
    start_date: '2026-01-01',
    even_week: Object.fromEntries(
      [8, 8, 8, 8, 8, 0, 0].map((h, n) => [`day_${n + 1}`, h ? { start_time: 9, end_time: 9 + h, hours: h } : { hours: 0 }]),
    ),
  });
  const vacation = await referenceId(t, 'fidelity', 'leave_type', `r.label = 'Vacation'`);
  const sickness = await referenceId(t, 'fidelity', 'absence_type', `r.label = 'Sickness'`);
  await post(api, '/hrm/leave', { employee_id: ids.employee, leave_type_id: vacation, year: 2026, hours: 200 });
  await post(api, '/hrm/leave', { employee_id: ids.employee, leave_type_id: vacation, year: 2025, hours: 8 });
  await post(api, '/hours/leave', {
    employee_id: ids.employee,
    leave_type_id: vacation,
    start_date: '2026-04-06',
    end_date: '2026-04-07',
  });
  await post(api, '/hrm/absence', {
    employee_id: ids.employee,
    absence_type_id: sickness,
    start_date: '2026-05-04',
    end_date: '2026-05-05',
  });

  // CRM
  const relationType = await referenceId(t, 'fidelity', 'relation_type', `r.label = 'Relationtype_customer'`);
  ids.organization = await post(api, '/crm/organization', {
    name: 'Fidelity BV',
    relation_type: { id: relationType },
    relation_manager: { id: ids.employee },
    visiting_address: { line_1: 'Main 1', locality: 'Utrecht', country_code: 'NL' },
    debtor: { provision_method: 'email', attention_to: 'contact' },
  });
  ids.person = await post(api, '/crm/person', {
    first_name: 'Pia',
    family_name: 'Person',
    relation_manager: { id: ids.employee },
    linked_as_contact_to_organization: [{ organization_id: ids.organization, work_function: 'Buyer' }],
  });

  ids.contact = (await data<Row[]>(`/crm/contactperson?q[person.id]=${enc(ids.person)}`))[0]?.id as string;

  // projects
  ids.project = await post(api, '/projects/project', {
    name: 'Fidelity project',
    project_number: 'P-26',
    organization_id: ids.organization,
    person_id: ids.person,
    project_manager_id: ids.employee,
    billable: true,
  });
  ids.service = await post(api, '/projects/service', {
    project_id: ids.project,
    name: 'Work',
    invoice_method: 'Hours',
    write_hours_start_date: '2026-01-01',
    write_hours_end_date: '2026-12-31',
    hour_types: [
      { hourtype_id: hourType, billable: true, tariff: 100 },
      { hourtype_id: otherType, billable: false, tariff: 80 },
      { hourtype_id: costType, billable: true, tariff: 12 },
    ],
  });
  const lines = (await data<{ hour_types: { id: string; hourstype: { id: string } }[] }>(`/projects/service/${ids.service}`))
    .hour_types;
  ids.assignment = await post(api, '/projects/assignment', {
    projecthourstype_id: lines.find((l) => l.hourstype.id === hourType)?.id,
    name: 'Build it',
    start_date: '2026-02-01',
    end_date: '2026-06-30',
    hours: 8,
    employees: [{ id: ids.employee }],
  });
  const fixed = await api.v3('POST', '/projectService.create', {
    projectId: ids.project,
    name: 'Fixed',
    invoiceMethod: 'fixed_price',
    price: 1000,
    amount: 1,
    invoiceInInstallments: true,
    installments: [{ name: 'Start', percentage: 100, expirationDate: '2026-03-01' }],
  });
  expect(fixed.status, fixed.text).toBe(201);
  await t.db.query(
    `INSERT INTO purchase (id, environment_id, project_id, supplier, invoice_number, invoice_date, invoice_amount, updated_at)
     VALUES ('purchase:fidelity', $1, $2, 'Paper Co', 'INV-9', '2026-05-04', 123.45, now())`,
    [env, ids.project],
  );

  // hours and what hangs off them
  ids.hours = await post(api, '/hours/hours', {
    employee_id: ids.employee,
    projectservice_id: ids.service,
    type_id: hourType,
    start_date: '2026-03-02',
    duration_in_minutes: 120,
    note: 'Work',
  });
  await post(api, '/mileage/mileage', {
    employee_id: ids.employee,
    project_id: ids.project,
    mileage: 42.5,
    start_date: '2026-03-02',
    related_hours_id: ids.hours,
    note: 'Client visit',
  });
  await post(api, '/costs/expense', {
    employee_id: ids.employee,
    service_id: ids.service,
    costtype_id: costType,
    date: '2026-03-05',
    amount: 3,
    note: 'Parking',
  });
  await post(api, '/hours/timesheetrow', {
    employee_id: ids.employee,
    project_service_id: ids.service,
    itemtype_id: hourType,
    type: 'hours',
    start_date: '2026-03-02',
    end_date: '2026-03-08',
  });
  await post(api, '/timers/timer', { employee_id: ids.employee, projectservice_id: ids.service, hourstype_id: hourType });

  // sales
  ids.sale = await post(api, '/sales/sales', {
    subject: 'Fidelity sale',
    organization_id: ids.organization,
    contact_id: ids.contact,
    responsible_employee_id: ids.employee,
    start_date: '2026-01-01',
    expected_closing_date: '2026-02-01',
    expected_revenue: 1000.5,
    chance_to_score: 50,
    linked_project_ids: [ids.project],
  });
  await post(api, '/sales/quote', { sales_id: ids.sale, quote_subject: 'Offer' });

  // invoices: one with a project and a payment
  const vat = (await data<{ id: string; percentage: number }[]>('/invoices/vatclass')).find((c) => c.percentage === 21)?.id;
  ids.invoice = await post(api, '/invoices/invoice', {
    organization_id: ids.organization,
    project_id: ids.project,
    invoice_lines: [{ description: 'Work', amount: 1, price: 100, vat_class_id: vat, project_id: ids.project }],
  });
  const sent = await api.v3('POST', `/invoice.send/${ids.invoice}`, {});
  expect(sent.status, sent.text).toBe(200);
  await post(api, '/invoices/payment', { invoice_id: ids.invoice, date: '2026-03-01', amount: 21 });

  // timeline, shared items
  const types = await data<{ id: string }[]>('/timeline/messagetype');
  await post(api, '/timeline/message', {
    messagetype_id: types[0]?.id,
    linked_to: { organization_id: ids.organization },
    title: 'Call',
    content: 'Called them',
  });
  await post(api, '/shared/item', { tag: 'dashboard', type: 'layout', employee_id: ids.employee, shared: 'private', data: '{}' });

  // hours approved, a team, a sales service
  const approval = Object.fromEntries(
    (await data<Row[]>('/hours/approvalstatus')).map((r) => [String(r.label).toLowerCase(), r.id]),
  );
  await post(api, '/hours/submit', { employee_id: ids.employee, start_date: '2026-03-02' });
  await post(api, '/hours/approval', { employee_id: ids.employee, date: '2026-03-02', approvalstatus_id: approval.approved });
  await t.db.query(
    `INSERT INTO team (id, environment_id, name, updated_at) VALUES ('team:fidelity', $1, 'Fidelity team', now())`,
    [env],
  );
  await post(api, '/hrm/employee', { name: 'Team Member', teams: [{ id: 'team:fidelity' }], supervisor: { id: ids.employee } });
  await post(api, '/sales/service', {
    sales_id: ids.sale,
    name: 'Design',
    invoice_method: 'Hours',
    amount: 10,
    price: 95.5,
    hour_types: [{ hourtype_id: hourType, billable: true, tariff: 95.5 }],
  });

  // custom fields of every model, with an option
  const models = await data<{ id: string; label: string }[]>('/customfields/model');
  const model = (label: string) => models.find((m) => m.label === label)?.id;
  const fields: [string, string][] = [
    ['Organization', '/crm/organizationcustomfields'],
    ['Person', '/crm/personcustomfields'],
    ['Project', '/projects/projectcustomfields'],
    ['Employee', '/hrm/employeecustomfields'],
    ['Sale', '/sales/salescustomfields'],
  ];
  for (const [label, path] of fields) {
    const group = await post(api, '/customfields/group', { name: `${label} group`, model: { id: model(label) } });
    const field = await post(api, path, {
      name: `${label.toLowerCase()}_tier`,
      label: 'Tier',
      type: 'dropdown',
      custom_field_group_id: group,
    });
    await post(api, '/customfields/option', { customfield_id: field, label: 'Gold', value: 'gold' });
  }

  // a document in every area that lists them
  const documents: [string, Record<string, string>][] = [
    ['/crm/document', { organization_id: ids.organization }],
    ['/hrm/document', { employee_id: ids.employee }],
    ['/sales/document', { sales_id: ids.sale }],
    ['/projects/document', { project_id: ids.project }],
    ['/invoices/document', { invoice_id: ids.invoice }],
  ];
  for (const [path, linked] of documents) {
    await post(api, path, {
      title: `Document of ${path}`,
      upload_queue_id: await uploadQueueId(`${path.split('/')[1]}.txt`, 'bytes'),
      linked_to: [linked],
    });
  }
});

async function uploadQueueId(fileName: string, text: string): Promise<string> {
  const bytes = Buffer.from(text);
  const started = await api.v2('POST', '/upload/chunked', { file_name: fileName, file_size: bytes.length });
  expect(started.status, started.text).toBe(200);
  const chunkedId = (started.body as Envelope<{ chunked_upload_id: string }>).data.chunked_upload_id;
  const done = await api.v2('PUT', `/upload/chunked/${encodeURIComponent(chunkedId)}`, { chunk: bytes.toString('base64') });
  expect(done.status, done.text).toBe(200);
  return (done.body as Envelope<{ upload_queue_id: string }>).data.upload_queue_id;
}
afterAll(() => t?.stop());

describe('every GET path of the reference answers in its 200 shape, deeply', () => {
  it('the table of deliberate differences holds at most five entries, each with its reason', () => {
    expect(DELIBERATE_DIFFERENCES.length).toBeLessThanOrEqual(5);
    for (const d of DELIBERATE_DIFFERENCES) {
      expect(d.reason.length, Object.keys(d.at).join()).toBeGreaterThan(20);
      for (const at of Object.keys(d.at)) {
        const [definition, property] = at.split('.') as [string, string];
        expect(referenceContract.definitions[definition]?.properties, at).toHaveProperty(property);
      }
    }
  });

  for (const { path, definition } of referencePaths) {
    if (NOT_WALKED[path]) continue;
    it(`${path} (${definition})`, async () => {
      expect(definition, `${path} has a record definition`).not.toBeNull();
      const validate = validatorFor(definition as string);
      const single = /\{[^}]+\}$/.test(path);
      const collection = single ? collectionOf(path) : path;
      const query = QUERY[collection]?.() ?? '';
      const rows = await data<Row[] | Row>(`${collection}${query}`);
      const list = Array.isArray(rows) ? rows : [rows];
      expect(list.length, `${collection} has rows to check`).toBeGreaterThan(0);
      const checked = single ? [await data<Row>(path.replace(/\{[^}]+\}$/, enc((list[0] as Row).id)))] : list;
      for (const item of checked) {
        answers.push({ path, item });
        const errors = validate(item) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
        expect(errors, `${path}: ${JSON.stringify(item).slice(0, 300)}`).toEqual([]);
      }
    });
  }
});

describe('a nested relation has one shape per target, its values filled where they are set', () => {
  /**
   * the collections whose records nest a project as GetProjectSimple (a timesheet row has a project
   * shape of its own, GetTimesheetRowProject; a sale's linked_projects is the contract's own shape)
   */
  const SIMPLE_PROJECT_PATHS = [
    '/hours/hours',
    '/mileage/mileage',
    '/costs/expense',
    '/timers/timer',
    '/projects/assignment',
    '/projects/purchase',
    '/invoices/invoice',
    '/invoices/proposition',
    '/projects/reverseinvoice',
  ];
  it('the seeded project, nested anywhere, carries its customer, contact person and manager (GetProjectSimple)', () => {
    const found = answers.flatMap(({ path, item }) =>
      nested(item)
        .filter((o) => o.id === ids.project && SIMPLE_PROJECT_PATHS.includes(path))
        .map((o) => ({ path, o })),
    );
    const paths = new Set(found.map((f) => f.path));
    for (const p of SIMPLE_PROJECT_PATHS) expect(paths, p).toContain(p);
    for (const { path, o } of found) {
      expect(o, path).toMatchObject({
        name: 'Fidelity project',
        project_number: 'P-26',
        organization: { id: ids.organization, name: 'Fidelity BV' },
        person: { id: ids.person, full_name: 'Pia Person' },
        project_manager: { id: ids.employee, name: 'Fiona Fidelity' },
        has_register_mileage_enabled: expect.any(Boolean),
      });
      expect(Object.keys(o).sort(), path).toEqual([
        'has_register_mileage_enabled',
        'id',
        'name',
        'organization',
        'person',
        'project_manager',
        'project_number',
        'separate_invoice_recipient',
      ]);
    }
  });

  it('the seeded organization and person, nested anywhere, carry their name and relation number (GetOrganizationSimple, GetPersonSimple)', () => {
    const orgs = answers.flatMap(({ path, item }) =>
      nested(item)
        // a document's link (LinkedToEntity) names the organization by id and label, not as a relation
        .filter((o) => o.id === ids.organization && 'name' in o)
        .map((o) => ({ path, o })),
    );
    expect(orgs.length).toBeGreaterThan(0);
    for (const { path, o } of orgs) expect(o.name, path).toBe('Fidelity BV');
    const projectsAndInvoices = orgs.filter((x) => /projects\/project|invoices\/invoice|projects\/purchase/.test(x.path));
    expect(projectsAndInvoices.length).toBeGreaterThan(0);
    for (const { path, o } of projectsAndInvoices) expect(o, path).toHaveProperty('relation_number');
    const persons = answers.flatMap(({ path, item }) =>
      nested(item)
        .filter((o) => o.id === ids.person && 'full_name' in o)
        .map((o) => ({ path, o })),
    );
    expect(persons.length).toBeGreaterThan(0);
    for (const { path, o } of persons) expect(o.full_name, path).toBe('Pia Person');
  });

  it('hours/hours.corrections is an object (amount, value, last_correction_date), zero when none were made', () => {
    const hours = answers.filter((a) => a.path === '/hours/hours').map((a) => a.item);
    expect(hours.length).toBeGreaterThan(0);
    for (const h of hours) expect(h.corrections).toEqual({ amount: 0, value: 0, last_correction_date: null });
  });

  it('costs/coststype.tariff is a string as in hours/hourstype (HoursType); nested cost types keep a number (GetPurchaseType)', () => {
    const types = answers.filter((a) => a.path === '/costs/coststype').map((a) => a.item);
    expect(types.some((c) => typeof c.tariff === 'string')).toBe(true);
    const purchaseTypes = answers.filter((a) => a.path === '/projects/purchasetype').map((a) => a.item);
    expect(purchaseTypes.some((c) => typeof c.tariff === 'number')).toBe(true);
  });
});

describe('hrm/leavebalance takes the reference parameters', () => {
  it('metadata=count answers the size of the filtered collection; sort=-year and sort=year order the balances', async () => {
    const q = `q[employee_id]=${enc(ids.employee)}`;
    const res = await api.v2('GET', `/hrm/leavebalance?${q}&metadata=count,limit,offset&limit=1`);
    expect(res.status, res.text).toBe(200);
    const body = res.body as Envelope<Row[]>;
    expect(body.data).toHaveLength(1);
    expect(body.metadata).toEqual({ count: 2, limit: 1, offset: 0 });
    const down = await data<{ year: number }[]>(`/hrm/leavebalance?${q}&sort=-year`);
    expect(down.map((b) => b.year)).toEqual([2026, 2025]);
    const up = await data<{ year: number }[]>(`/hrm/leavebalance?${q}&sort=leavetype.label,year`);
    expect(up.map((b) => b.year)).toEqual([2025, 2026]);
    const plain = await api.v2('GET', `/hrm/leavebalance?${q}`);
    expect(plain.body).not.toHaveProperty('metadata');
  });

  it('an unknown sort key or metadata word is refused with 400, naming the parameter', async () => {
    for (const bad of ['sort=granted', 'metadata=total']) {
      const res = await api.v2('GET', `/hrm/leavebalance?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(JSON.stringify(res.body), bad).toContain(bad.split('=')[0]);
    }
  });
});

describe('legacy timestamp names: created and modified beside created_at and updated_at, from one declaration', () => {
  const resources = [
    '/crm/organization',
    '/sales/sales',
    '/hrm/contract',
    '/projects/project',
    '/hours/hours',
    '/invoices/invoice',
  ];

  it('every walked record with the timestamps carries created and modified with the same values', () => {
    let seen = 0;
    for (const { path, item } of answers) {
      if (!('updated_at' in item)) continue;
      seen += 1;
      expect(item.modified, path).toBe(item.updated_at);
      if ('created_at' in item) expect(item.created, path).toBe(item.created_at);
    }
    expect(seen).toBeGreaterThan(50);
  });

  for (const path of resources) {
    it(`${path}: select=modified,created, q[modified][ge], q[created][le] and sort=-modified work`, async () => {
      const all = await data<Row[]>(`${path}?select=modified,created`);
      expect(all.length).toBeGreaterThan(0);
      for (const r of all) expect(Object.keys(r).sort(), path).toEqual(expect.arrayContaining(['created', 'id', 'modified']));
      expect(all.every((r) => !('name' in r) && !('updated_at' in r))).toBe(true);
      const since = await data<Row[]>(`${path}?q[modified][ge]=2020-01-01`);
      expect(since.length).toBe(all.length);
      expect(await data<Row[]>(`${path}?q[created][le]=2000-01-01`)).toEqual([]);
      const byAlias = await data<Row[]>(`${path}?sort=-modified,id`);
      const byName = await data<Row[]>(`${path}?sort=-updated_at,id`);
      expect(byAlias.map((r) => r.id)).toEqual(byName.map((r) => r.id));
      const one = await data<Row>(`${path}/${enc(all[0]?.id)}?select=modified`);
      expect(one).toEqual({ id: all[0]?.id, modified: all[0]?.modified });
    });
  }
});

describe('2023-04: refusals of hours/leave, hours/absence, hrm/leave and hrm/absence carry a stable [code]', () => {
  it('every refusal text ends with its code, like the refusals of hours bookings', async () => {
    const vacation = await referenceId(t, 'fidelity', 'leave_type', `r.label = 'Vacation'`);
    const sickness = await referenceId(t, 'fidelity', 'absence_type', `r.label = 'Sickness'`);
    const cases: [string, Record<string, unknown>, string][] = [
      [
        '/hours/leave',
        { employee_id: ids.employee, leave_type_id: vacation, start_date: '2026-05-12', end_date: '2026-05-11' },
        'invalid_period',
      ],
      ['/hrm/leave', { employee_id: ids.employee, leave_type_id: vacation, hours: 8 }, 'required'],
      [
        '/hours/leave',
        { employee_id: ids.employee, leave_type_id: vacation, start_date: '2026-06-01', hours: 5000 },
        'negative_balance',
      ],
      [
        '/hours/absence',
        { employee_id: ids.employee, absence_type_id: sickness, start_date: '2026-05-12', end_date: '2026-05-11' },
        'invalid_period',
      ],
      ['/hrm/absence', { employee_id: ids.employee, start_date: '2026-05-12' }, 'required'],
    ];
    for (const [path, body, code] of cases) {
      const res = await api.v2('POST', path, body);
      expect(res.status, `${path} ${res.text}`).toBe(400);
      const errors = (res.body as Envelope).errors ?? [];
      expect(errors.length, path).toBeGreaterThan(0);
      for (const e of errors) expect(e, path).toMatch(/^[a-z_.0-9]*:? ?.+ \[[a-z_]+\]$/);
      expect(errors.join(' '), path).toContain(`[${code}]`);
    }
  });
});

describe('sales carry their contact and the moment their status changed', () => {
  it('sales/sales: contact (GetContactSimple) beside contact_id, and status_updated_at', async () => {
    expect(ids.contact).toBeTruthy();
    const sale = await data<Row>(`/sales/sales/${enc(ids.sale)}`);
    expect(sale.contact_id).toBe(ids.contact);
    expect(sale.contact).toEqual({
      id: ids.contact,
      person: { id: ids.person, full_name: 'Pia Person', relation_number: null },
      organization: { id: ids.organization, name: 'Fidelity BV', relation_number: null },
    });
    expect(sale).toHaveProperty('status_updated_at');
  });
});

describe('timeline_email_address on organizations and sales', () => {
  it('one address per record and environment: <type>-<record>@<environment>.timeline.invalid', async () => {
    const env = (await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'fidelity'`))[0]?.id as string;
    const envPart = env.split(':')[1];
    const org = await data<Row>(`/crm/organization/${enc(ids.organization)}`);
    const sale = await data<Row>(`/sales/sales/${enc(ids.sale)}`);
    expect(org.timeline_email_address).toBe(`${ids.organization?.replace(':', '-')}@${envPart}.timeline.invalid`);
    expect(sale.timeline_email_address).toBe(`${ids.sale?.replace(':', '-')}@${envPart}.timeline.invalid`);
    const listed = await data<Row[]>('/crm/organization?select=timeline_email_address');
    expect(new Set(listed.map((o) => o.timeline_email_address)).size).toBe(listed.length);
  });
});
