import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, list, post } from './support/crm.js';
import { v2Create, v2Get } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';
import { documentValidator, expectBusinessRule, expectProblem } from './support/v3.js';

/** HRM employees (issue 11): statuses, the person and user links, teams, deletion, end of employment, rights, v3. */

let t: TestService;
let acme: ApiClient;
let validate: Awaited<ReturnType<typeof documentValidator>>;

type Row = Record<string, unknown> & { id: string };
const errorsOf = (res: { body: unknown }) => ((res.body as Envelope).errors ?? []).join(' ');

const WEEK = {
  day_1: { start_time: 9, end_time: 17, hours: 8 },
  day_2: { start_time: 9, end_time: 17, hours: 8 },
  day_3: { start_time: 9, end_time: 17, hours: 8 },
  day_4: { start_time: 9, end_time: 17, hours: 8 },
  day_5: { start_time: 9, end_time: 17, hours: 8 },
  day_6: { hours: 0 },
  day_7: { hours: 0 },
};

async function statusId(key: string): Promise<string> {
  const rows = await t.db.query<{ id: string }>(
    `SELECT s.id FROM employee_status s JOIN environment e ON e.id = s.environment_id WHERE e.name = 'acme' AND s.key = $1`,
    [key],
  );
  return rows[0]?.id as string;
}

async function userIdOf(email: string): Promise<string> {
  const rows = await t.db.query<{ id: string }>('SELECT id FROM user_account WHERE email = $1', [email]);
  return rows[0]?.id as string;
}

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  validate = await documentValidator(acme);
});
afterAll(() => t?.stop());

describe('hrm/employee', () => {
  it('2022-07: create, update and delete employees', async () => {
    const id = await post(acme, '/hrm/employee', { name: 'Eva Jansen', function: 'Developer', work_email: 'eva@acme.test' });
    expect(await v2Get<Row>(acme, `/hrm/employee/${id}`)).toMatchObject({
      id,
      name: 'Eva Jansen',
      function: 'Developer',
      work_email: 'eva@acme.test',
      employment_status: 'active',
      status: { id: await statusId('active'), label: 'active' },
      is_user: 0,
      teams: [],
      custom_fields: [],
    });
    expect((await acme.v2('PUT', `/hrm/employee/${id}`, { function: 'Lead developer', work_phone: '010-1234567' })).status).toBe(
      200,
    );
    expect(await v2Get<Row>(acme, `/hrm/employee/${id}`)).toMatchObject({
      function: 'Lead developer',
      work_phone: '010-1234567',
    });
    const del = await acme.v2('DELETE', `/hrm/employee/${id}`);
    expect(del.status, del.text).toBe(200);
    expect((await acme.v2('GET', `/hrm/employee/${id}`)).status).toBe(404);
  });

  it('2022-07: deleting an employee who has hours, assignments or project memberships is refused with a clear message', async () => {
    const id = await post(acme, '/hrm/employee', { name: 'Busy Bee' });
    const project = await v2Create(acme, '/projects/project', { name: 'Staffed project' });
    await v2Create(acme, '/projects/projectemployee', { project_id: project, employee_id: id });
    const before = await databaseFingerprint(t.db);
    const res = await acme.v2('DELETE', `/hrm/employee/${id}`);
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toContain('cannot be deleted');
    expect(errorsOf(res)).toContain('1 project membership(s)');
    expect(await databaseFingerprint(t.db)).toEqual(before);
    expect((await acme.v2('GET', `/hrm/employee/${id}`)).status).toBe(200);

    // an assignment keeps an employee too
    const planned = await post(acme, '/hrm/employee', { name: 'Planned Paul' });
    const hourType = (await list<Row>(acme, '/hours/hourstype'))[0]?.id as string;
    const service = await v2Create(acme, '/projects/service', {
      project_id: project,
      name: 'Build',
      invoice_method: 'Hours',
      hour_types: [{ hourtype_id: hourType, billable: true }],
    });
    const line = (await v2Get<{ hour_types: Row[] }>(acme, `/projects/service/${service}`)).hour_types[0]?.id as string;
    await v2Create(acme, '/projects/assignment', { projecthourstype_id: line, employees: [{ id: planned }] });
    const refused = await acme.v2('DELETE', `/hrm/employee/${planned}`);
    expect(refused.status).toBe(400);
    expect(errorsOf(refused)).toContain('1 assignment(s)');
    expect((await acme.v2('GET', `/hrm/employee/${planned}`)).status).toBe(200);

    // and so do hour registrations (the hours area books them; here the row stands for one)
    const booked = await post(acme, '/hrm/employee', { name: 'Booked Bob' });
    await t.db.query(
      `INSERT INTO hour_registration (id, environment_id, employee_id, project_id, project_service_id, hour_type_id, start_date,
                                      duration_minutes, billable, updated_at)
       SELECT 'hours:bob', environment_id, $1, project_id, id, $3, '2026-03-02', 60, true, now() FROM project_service WHERE id = $2`,
      [booked, service, hourType],
    );
    const withHours = await acme.v2('DELETE', `/hrm/employee/${booked}`);
    expect(withHours.status).toBe(400);
    expect(errorsOf(withHours)).toContain('1 hour registration(s)');
  });

  it('hrm/employee reads in the reference shape (GetEmployee); hrm/document and hrm/documenttype read through the document store', async () => {
    const id = await post(acme, '/hrm/employee', { name: 'Shape Shifter', hourly_sales_tariff: 95.5 });
    const e = await v2Get<Row>(acme, `/hrm/employee/${id}`);
    for (const key of [
      'id',
      'is_user',
      'teams',
      'supervisor',
      'status',
      'custom_fields',
      'person_id',
      'name',
      'bank_account',
      'function',
      'type',
      'employment_status',
      'civil_status',
      'work_phone',
      'work_mobile',
      'work_email',
      'hourly_sales_tariff',
      'hourly_cost_tariff',
      'avatar',
      'created_at',
      'updated_at',
      'simplicate_url',
    ]) {
      expect(e, key).toHaveProperty(key);
    }
    expect(e).toMatchObject({ hourly_sales_tariff: 95.5, employment_status: 'active' });
    expect(e.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const types = await list<Row>(acme, '/hrm/documenttype');
    expect(types.map((x) => x.label)).toContain('Contract');
    expect(types.every((x) => x.is_for_employee === true)).toBe(true);
    expect(await list<Row>(acme, '/hrm/document')).toEqual([]);

    // a finished upload becomes an employee's document through hrm/document (the document store's writes)
    const bytes = Buffer.from('%PDF-1.7\ncontract');
    const started = await acme.v2('POST', '/upload/chunked', { file_name: 'contract.pdf', file_size: bytes.length });
    const uploadId = (started.body as Envelope<{ chunked_upload_id: string }>).data.chunked_upload_id;
    const chunk = await acme.v2('PUT', `/upload/chunked/${encodeURIComponent(uploadId)}`, { chunk: bytes.toString('base64') });
    const queueId = (chunk.body as Envelope<{ upload_queue_id: string }>).data.upload_queue_id;
    const organization = await post(acme, '/crm/organization', { name: 'Not An Employee BV' });
    const before = await databaseFingerprint(t.db);
    const org = await acme.v2('POST', '/hrm/document', {
      upload_queue_id: queueId,
      title: 'X',
      linked_to: { organization_id: organization },
    });
    expect(org.status).toBe(400);
    expect(errorsOf(org)).toContain('a document here is linked to one of: employee_id');
    expect(await databaseFingerprint(t.db)).toEqual(before);
    const doc = await post(acme, '/hrm/document', {
      upload_queue_id: queueId,
      title: 'Employment contract',
      document_type_id: types[0]?.id,
      linked_to: { employee_id: id },
    });
    expect(await v2Get<Row>(acme, `/hrm/document/${doc}`)).toMatchObject({
      title: 'Employment contract',
      linked_to: [{ id, type: 'employee', employee_id: id }],
      file_name: 'contract.pdf',
    });
    expect((await acme.v2('PUT', '/hrm/document', { id: doc, title: 'Signed contract' })).status).toBe(200);
    expect((await list<Row>(acme, '/hrm/document')).map((d) => d.title)).toEqual(['Signed contract']);
    expect((await acme.v2('DELETE', `/hrm/document/${doc}`)).status).toBe(200);
    expect(await list<Row>(acme, '/hrm/document')).toEqual([]);
  });

  it('2023-04: person_id on PUT links the employee to a crm person; the name follows the person and person.* filters through the link', async () => {
    const person = await post(acme, '/crm/person', { first_name: 'Noor', family_name: 'de Vries' });
    const id = await post(acme, '/hrm/employee', { name: 'Placeholder' });
    expect((await acme.v2('PUT', `/hrm/employee/${id}`, { person_id: person })).status).toBe(200);
    const e = await v2Get<Row>(acme, `/hrm/employee/${id}`);
    expect(e).toMatchObject({ person_id: person, name: 'Noor de Vries' });
    const found = await list<Row>(acme, '/hrm/employee?q[person.full_name]=Noor*');
    expect(found.map((r) => r.id)).toEqual([id]);
    expect(await list<Row>(acme, '/hrm/employee?q[person.full_name]=Nobody*')).toEqual([]);
  });

  it('status {id, label} is real: active, inactive and out of employment; the label filter works', async () => {
    const id = await post(acme, '/hrm/employee', { name: 'Sleeping Sam', status: { id: await statusId('inactive') } });
    const e = await v2Get<Row>(acme, `/hrm/employee/${id}`);
    expect(e).toMatchObject({ status: { id: await statusId('inactive'), label: 'inactive' }, employment_status: 'inactive' });
    const inactive = await list<Row>(acme, '/hrm/employee?q[status.label]=inactive');
    expect(inactive.map((r) => r.id)).toContain(id);
    expect(inactive.every((r) => (r.status as { label: string }).label === 'inactive')).toBe(true);
    const active = await list<Row>(acme, '/hrm/employee?q[status.label]=active');
    expect(active.map((r) => r.id)).not.toContain(id);
    const labels = (
      await t.db.query<{ label: string }>(
        `SELECT s.label FROM employee_status s JOIN environment e ON e.id = s.environment_id WHERE e.name = 'acme' ORDER BY s.position`,
      )
    ).map((r) => r.label);
    expect(labels).toEqual(['active', 'inactive', 'unemployed']);
  });

  it('teams and supervisor are written by id and read back (GetEmployee); hrm/team lists its employees', async () => {
    const env = (await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`))[0]?.id;
    await t.db.query(`INSERT INTO team (id, environment_id, name, updated_at) VALUES ('team:dev', $1, 'Development', now())`, [
      env,
    ]);
    const boss = await post(acme, '/hrm/employee', { name: 'Boss Baas' });
    const id = await post(acme, '/hrm/employee', { name: 'Team Player', teams: [{ id: 'team:dev' }], supervisor: { id: boss } });
    expect(await v2Get<Row>(acme, `/hrm/employee/${id}`)).toMatchObject({
      teams: [{ id: 'team:dev', name: 'Development' }],
      supervisor: { id: boss, name: 'Boss Baas' },
    });
    expect(await v2Get<Row>(acme, '/hrm/team/team:dev')).toMatchObject({
      name: 'Development',
      employees: [{ id, name: 'Team Player' }],
    });
    const v3 = await acme.v3('GET', '/employee.list?teamId=team:dev');
    expect(v3.status, v3.text).toBe(200);
    expect((v3.body as { items: Row[] }).items.map((r) => r.id)).toEqual([id]);
  });
});

describe('2023-11: the end of employment', () => {
  async function setUp(): Promise<{ id: string; userId: string; timetable: string }> {
    const email = `worker${Math.random().toString(36).slice(2)}@acme.test`;
    await t.user('acme', email, { hrm: 'read' });
    const userId = await userIdOf(email);
    const id = await post(acme, '/hrm/employee', { name: 'Leaving Lisa', user_id: userId });
    const timetable = await post(acme, '/hrm/timetable', { employee_id: id, start_date: '2024-01-01', even_week: WEEK });
    return { id, userId, timetable };
  }

  it('2023-11: an employee can be set to unemployed only when the user is blocked and all timetables have an end date', async () => {
    const { id, userId, timetable } = await setUp();
    expect(await v2Get<Row>(acme, `/hrm/employee/${id}`)).toMatchObject({ is_user: 1, user_id: userId });
    const unemployed = { status: { id: await statusId('unemployed') } };

    let before = await databaseFingerprint(t.db);
    let res = await acme.v2('PUT', `/hrm/employee/${id}`, unemployed);
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toContain('is not blocked');
    expect(errorsOf(res)).toContain('1 timetable has no end date');
    expect(await databaseFingerprint(t.db)).toEqual(before);

    await t.db.query('UPDATE user_account SET is_active = false WHERE id = $1', [userId]);
    before = await databaseFingerprint(t.db);
    res = await acme.v2('PUT', `/hrm/employee/${id}`, unemployed);
    expect(res.status).toBe(400);
    expect(errorsOf(res)).not.toContain('is not blocked');
    expect(errorsOf(res)).toContain('timetable has no end date');
    expect(await databaseFingerprint(t.db)).toEqual(before);

    expect((await acme.v2('PUT', `/hrm/timetable/${timetable}`, { end_date: '2025-12-31' })).status).toBe(200);
    res = await acme.v2('PUT', `/hrm/employee/${id}`, unemployed);
    expect(res.status, res.text).toBe(200);
    expect(await v2Get<Row>(acme, `/hrm/employee/${id}`)).toMatchObject({
      status: { label: 'unemployed' },
      employment_status: 'inactive',
    });
    // writing the same status again is no new end of employment
    await t.db.query('UPDATE user_account SET is_active = true WHERE id = $1', [userId]);
    expect((await acme.v2('PUT', `/hrm/employee/${id}`, { ...unemployed, function: 'Former' })).status).toBe(200);
    // a new employee cannot start out of employment
    expect((await acme.v2('POST', '/hrm/employee', { name: 'Never Started', ...unemployed })).status).toBe(400);
  });

  it('2023-11: employee.endEmployment answers 422 naming the failing condition, and ends the employment once it holds', async () => {
    const { id, userId, timetable } = await setUp();
    const before = await databaseFingerprint(t.db);
    const p = expectBusinessRule(await acme.v3('POST', `/employee.endEmployment/${id}`, {}), 'is not blocked');
    expect(p.detail).toContain('timetable has no end date');
    expect(await databaseFingerprint(t.db)).toEqual(before);
    await t.db.query('UPDATE user_account SET is_active = false WHERE id = $1', [userId]);
    expect((await acme.v2('PUT', `/hrm/timetable/${timetable}`, { end_date: '2025-06-30' })).status).toBe(200);
    const res = await acme.v3('POST', `/employee.endEmployment/${id}`, {});
    expect(res.status, res.text).toBe(200);
    validate('Hrm.Employee', res.body);
    expect(res.body).toMatchObject({ id, employmentStatus: 'inactive', status: { key: 'unemployed' } });
    const events = await t.db.query<{ type: string }>(`SELECT type FROM event WHERE entity_id = $1 ORDER BY id`, [id]);
    expect(events.map((e) => e.type)).toEqual(['employee.created', 'employee.updated']);
  });
});

describe('v3 employee', () => {
  it('employee.create, employee.edit and employee.get, with events; employee.list filters status and name', async () => {
    const created = await acme.v3('POST', '/employee.create', { name: 'Vera Drie', function: 'Designer' });
    expect(created.status, created.text).toBe(201);
    validate('Hrm.Employee', created.body);
    const id = (created.body as Row).id;
    const edited = await acme.v3('POST', `/employee.edit/${id}`, { workPhone: '06-1', statusId: await statusId('inactive') });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ workPhone: '06-1', employmentStatus: 'inactive', status: { key: 'inactive' } });
    const got = await acme.v3('GET', `/employee.get/${id}`);
    expect(got.status).toBe(200);
    validate('Hrm.Employee', got.body);
    const inactive = await acme.v3('GET', '/employee.list?status=inactive&name=Vera%20Drie');
    expect((inactive.body as { items: Row[] }).items.map((r) => r.id)).toEqual([id]);
    const active = await acme.v3('GET', '/employee.list?status=active&name=Vera%20Drie');
    expect((active.body as { items: Row[] }).items).toEqual([]);
    const events = await t.db.query<{ type: string }>(`SELECT type FROM event WHERE entity_id = $1 ORDER BY id`, [id]);
    expect(events.map((e) => e.type)).toEqual(['employee.created', 'employee.updated']);
  });

  it('an unknown person or user id answers 400 in v2 and 422 in v3, and nothing changes', async () => {
    const id = await post(acme, '/hrm/employee', { name: 'Stable Steve' });
    const before = await databaseFingerprint(t.db);
    for (const body of [{ person_id: 'person:nope' }, { user_id: 'user:nope' }]) {
      const res = await acme.v2('PUT', `/hrm/employee/${id}`, body);
      expect(res.status, res.text).toBe(400);
      expect(errorsOf(res)).toContain(Object.keys(body)[0] as string);
      expect((await acme.v2('POST', '/hrm/employee', { name: 'New', ...body })).status).toBe(400);
    }
    for (const body of [{ personId: 'person:nope' }, { userId: 'user:nope' }]) {
      const p = expectProblem(await acme.v3('POST', `/employee.edit/${id}`, body), 422);
      expect(p.violations?.map((v) => v.propertyPath)).toEqual(Object.keys(body));
      expectProblem(await acme.v3('POST', '/employee.create', { name: 'New', ...body }), 422);
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});

describe('rights', () => {
  it('HR data is readable only with the hrm right; relations from other modules show an employee id and name only', async () => {
    const id = await post(acme, '/hrm/employee', { name: 'Private Pete', bank_account: 'NL01BANK0123456789' });
    const project = await v2Create(acme, '/projects/project', { name: 'Seen from projects', project_manager_id: id });
    const noHrm = await t.user('acme', 'nohrm@acme.test', { projects: 'read', crm: 'read' });
    for (const path of [
      '/hrm/employee',
      `/hrm/employee/${id}`,
      '/hrm/timetable',
      '/hrm/leave',
      '/hrm/absence',
      '/hrm/leavebalance',
      '/hrm/contract',
    ]) {
      expect((await noHrm.v2('GET', path)).status, path).toBe(403);
    }
    expect((await noHrm.v3('GET', '/employee.list')).status).toBe(403);
    expect((await noHrm.v3('GET', `/employee.get/${id}`)).status).toBe(403);
    const seen = await v2Get<Row>(noHrm, `/projects/project/${project}`);
    expect(seen.project_manager).toEqual({ id, name: 'Private Pete' });
    const full = await v2Get<Row>(acme, `/projects/project/${project}`);
    expect(Object.keys(full.project_manager as object).length).toBeGreaterThan(2);
  });

  it('hrm/employeecustomfields holds definitions only; custom-field filters on hrm/employee stay a 400', async () => {
    const field = await post(acme, '/hrm/employeecustomfields', { name: 'shoe_size', label: 'Shoe size', type: 'integer' });
    const defs = await list<Row>(acme, '/hrm/employeecustomfields');
    expect(defs.map((d) => d.id)).toEqual([field]);
    expect(defs[0]).toMatchObject({ name: 'shoe_size', label: 'Shoe size' });
    expect((await list<Row>(acme, '/crm/organizationcustomfields')).map((d) => d.id)).not.toContain(field);
    expect(Array.isArray(await list<Row>(acme, '/hrm/employeecustomfieldgroups'))).toBe(true);
    const res = await acme.v2('GET', '/hrm/employee?q[custom_fields.shoe_size]=42');
    expect(res.status).toBe(400);
    const noHrm = await t.user('acme', 'nohrm-fields@acme.test', { crm: 'write' });
    expect((await noHrm.v2('GET', '/hrm/employeecustomfields')).status).toBe(403);
  });
});
