import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractValidator } from './support/contract.js';
import { type Envelope, list, post } from './support/crm.js';
import { errorsOf, referenceData } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';

/**
 * Issue 14, the remaining reference paths: projects/assignmentstatus (GET, POST, PUT)
 * with the status of an assignment, and shared/item (GET, POST, PUT, DELETE).
 */

const { conforms } = contractValidator();
let t: TestService;
let acme: ApiClient;
let other: ApiClient;
const ids: Record<string, string> = {};
type Row = Record<string, unknown> & { id: string };

async function get<T = Row>(client: ApiClient, p: string): Promise<T> {
  const res = await client.v2('GET', p);
  expect(res.status, `${p}: ${res.text}`).toBe(200);
  return (res.body as Envelope<T>).data;
}

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  other = await t.environment('other');
  const ref = await referenceData(acme);
  const project = await post(acme, '/projects/project', { name: 'Planned' });
  const service = await post(acme, '/projects/service', {
    project_id: project,
    name: 'Build',
    invoice_method: 'Hours',
    hour_types: [{ hourtype_id: ref.hourTypes[0]?.id, billable: true }],
  });
  const line = (await get<{ hour_types: Row[] }>(acme, `/projects/service/${service}`)).hour_types[0]?.id as string;
  ids.assignment = await post(acme, '/projects/assignment', { projecthourstype_id: line, name: 'Checkout' });
  ids.employee = await post(acme, '/hrm/employee', { name: 'Ada Planner' });
  ids.otherEmployee = await post(other, '/hrm/employee', { name: 'Elsewhere' });
});
afterAll(() => t?.stop());

describe('projects/assignmentstatus', () => {
  it('GET lists the seeded statuses in their order (GetAssignmentStatus), the done one last', async () => {
    const statuses = await list<Row>(acme, '/projects/assignmentstatus');
    expect(statuses.map((s) => [s.name, s.order, s.is_done])).toEqual([
      ['To do', 0, false],
      ['In progress', 1, false],
      ['Done', 2, true],
    ]);
    for (const s of statuses) conforms('GetAssignmentStatus', s);
    ids.todo = statuses[0]?.id as string;
    ids.done = statuses[2]?.id as string;
    expect(await list(other, `/projects/assignmentstatus?q[id]=${encodeURIComponent(ids.todo)}`)).toEqual([]);
  });

  it('POST (AssignmentStatus) adds a status after the others; PUT changes it; filters and sorts work on it', async () => {
    const id = await post(acme, '/projects/assignmentstatus', { name: 'Waiting for customer', color: '#ff9800' });
    expect(await get(acme, `/projects/assignmentstatus/${id}`)).toMatchObject({
      name: 'Waiting for customer',
      color: '#ff9800',
      order: 3,
      is_done: false,
      is_blocked: false,
    });
    const res = await acme.v2('PUT', `/projects/assignmentstatus/${id}`, { name: 'Waiting', order: 1, is_blocked: true });
    expect(res.status, res.text).toBe(200);
    expect(await get(acme, `/projects/assignmentstatus/${id}`)).toMatchObject({ name: 'Waiting', order: 1, is_blocked: true });
    const blocked = await list<Row>(acme, '/projects/assignmentstatus?q[is_blocked]=true');
    expect(blocked.map((s) => s.id)).toEqual([id]);
    ids.blocked = id;
  });

  it('statuses are not deleted (the reference has no DELETE): DELETE has no route and changes nothing', async () => {
    const before = await databaseFingerprint(t.db);
    const res = await acme.v2('DELETE', `/projects/assignmentstatus/${ids.todo}`);
    expect(res.status, res.text).toBe(404);
    expect(errorsOf(res.body)).toMatch(/no such endpoint/);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('bad input (an empty name, a colour that is not #rrggbb, an unknown field) answers 400 and changes nothing', async () => {
    const before = await databaseFingerprint(t.db);
    for (const body of [
      { name: '' },
      { name: 'x', color: 'red' },
      { name: 'x', is_done: 'yes' },
      { name: 'x', colour: '#000000' },
    ]) {
      const res = await acme.v2('POST', '/projects/assignmentstatus', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});

describe('projects/assignment status', () => {
  it('status_id on PUT projects/assignment sets the status, and the read shows it', async () => {
    const res = await acme.v2('PUT', `/projects/assignment/${ids.assignment}`, { status_id: ids.done });
    expect(res.status, res.text).toBe(200);
    const a = await get(acme, `/projects/assignment/${ids.assignment}`);
    expect(a.status).toMatchObject({ id: ids.done, name: 'Done', is_done: true });
    const done = await list<Row>(acme, `/projects/assignment?q[status.id]=${encodeURIComponent(ids.done as string)}`);
    expect(done.map((x) => x.id)).toEqual([ids.assignment]);
  });

  it('an unknown status, another environment’s status or a blocked status is refused with 400 and changes nothing', async () => {
    const otherStatus = (await list<Row>(other, '/projects/assignmentstatus'))[0]?.id as string;
    const before = await databaseFingerprint(t.db);
    for (const statusId of ['assignmentstatus:nope', otherStatus, ids.blocked]) {
      const res = await acme.v2('PUT', `/projects/assignment/${ids.assignment}`, { status_id: statusId });
      expect(res.status, res.text).toBe(400);
      expect(errorsOf(res.body)).toMatch(/status_id/);
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});

describe('shared/item', () => {
  it('POST, GET, PUT and DELETE (PostSharedItem, GetSharedItem)', async () => {
    const id = await post(acme, '/shared/item', {
      tag: 'dashboard',
      type: 'layout',
      employee_id: ids.employee,
      shared: 'private',
      data: '{"columns":3}',
    });
    const item = await get(acme, `/shared/item/${id}`);
    expect(item).toMatchObject({
      tag: 'dashboard',
      type: 'layout',
      employee_id: ids.employee,
      shared: 'private',
      data: '{"columns":3}',
    });
    conforms('GetSharedItem', item);
    expect((await acme.v2('PUT', `/shared/item/${id}`, { data: '{"columns":4}', shared: 'shared' })).status).toBe(200);
    expect(await get(acme, `/shared/item/${id}`)).toMatchObject({ data: '{"columns":4}', shared: 'shared' });
    const tagged = await list<Row>(acme, '/shared/item?q[tag]=dashboard');
    expect(tagged.map((i) => i.id)).toEqual([id]);
    expect((await other.v2('GET', `/shared/item/${id}`)).status).toBe(404);
    expect((await acme.v2('DELETE', `/shared/item/${id}`)).status).toBe(200);
    expect((await acme.v2('GET', `/shared/item/${id}`)).status).toBe(404);
  });

  it('a private item without its employee, an unknown or foreign employee, an unknown visibility: 400, nothing stored', async () => {
    const before = await databaseFingerprint(t.db);
    for (const body of [
      { tag: 'x', shared: 'private' },
      { tag: 'x', employee_id: 'employee:nope' },
      { tag: 'x', employee_id: ids.otherEmployee },
      { tag: 'x', shared: 'everyone' },
      { tag: '' },
      { data: 'no tag' },
    ]) {
      const res = await acme.v2('POST', '/shared/item', body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(400);
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('shared/item needs the shared right: a token without it is refused with 403', async () => {
    const limited = await t.user('acme', 'crm-only@acme.test', { crm: 'write' });
    expect((await limited.v2('GET', '/shared/item')).status).toBe(403);
    expect((await limited.v2('POST', '/shared/item', { tag: 'x' })).status).toBe(403);
  });
});

describe('projects/assignmentbudget', () => {
  it('per assignment running in the week: planned against the hours its employees booked on its line (AssignmentBudget)', async () => {
    const ref = await referenceData(acme);
    const project = await post(acme, '/projects/project', { name: 'Budgeted' });
    const service = await post(acme, '/projects/service', {
      project_id: project,
      name: 'Build',
      invoice_method: 'Hours',
      hour_types: [{ hourtype_id: ref.hourTypes[0]?.id, billable: true }],
    });
    const line = (await get<{ hour_types: Row[] }>(acme, `/projects/service/${service}`)).hour_types[0]?.id as string;
    const ada = await post(acme, '/hrm/employee', { name: 'Ada Budget' });
    const bob = await post(acme, '/hrm/employee', { name: 'Bob Elsewhere' });
    const weekly = await post(acme, '/projects/assignment', {
      projecthourstype_id: line,
      hours_type: 'per_week',
      hours: 8,
      start_date: '2026-03-02',
      end_date: '2026-03-29',
      employees: [{ id: ada }],
    });
    const total = await post(acme, '/projects/assignment', {
      projecthourstype_id: line,
      hours_type: 'total',
      hours: 20,
      start_date: '2026-03-02',
      end_date: '2026-03-29',
      employees: [{ id: ada }],
    });
    const later = await post(acme, '/projects/assignment', {
      projecthourstype_id: line,
      hours: 5,
      start_date: '2026-06-01',
      employees: [{ id: ada }],
    });
    // hours as the hours area books them: Ada twice on the line, Bob once (not on the assignments)
    const book = (id: string, employee: string, date: string, minutes: number) =>
      t.db.query(
        `INSERT INTO hour_registration (id, environment_id, employee_id, project_id, project_service_id, hour_type_id, start_date,
                                        duration_minutes, billable, updated_at)
         SELECT $1, environment_id, $2, project_id, id, $3, $4::date, $5, true, now() FROM project_service WHERE id = $6`,
        [id, employee, ref.hourTypes[0]?.id, date, minutes, service],
      );
    await book('hours:ada1', ada, '2026-03-03', 120);
    await book('hours:ada2', ada, '2026-03-10', 60);
    await book('hours:bob1', bob, '2026-03-04', 240);

    const budgets = await list<Row>(acme, '/projects/assignmentbudget?q[range_start]=2026-03-04');
    const of = (id: string) => budgets.find((b) => b.assignment_id === id);
    expect(of(weekly)).toEqual({
      assignment_id: weekly,
      range_start: '2026-03-02',
      range_end: '2026-03-08',
      budget_range_start: '2026-03-02',
      budget_range_end: '2026-03-29',
      planned_amount: 8,
      spent_amount: 2,
      hours_type: 'per_week',
    });
    expect(of(total)).toMatchObject({ planned_amount: 20, spent_amount: 3, hours_type: 'total' });
    expect(of(later)).toBeUndefined();
    for (const b of budgets) conforms('AssignmentBudget', b);

    const nextWeek = await list<Row>(acme, `/projects/assignmentbudget?q[range_start]=2026-03-09&q[assignment_id]=${weekly}`);
    expect(nextWeek.map((b) => [b.range_start, b.spent_amount])).toEqual([['2026-03-09', 1]]);
    const bobs = await list<Row>(acme, `/projects/assignmentbudget?q[range_start]=2026-03-04&q[employee_id]=${bob}`);
    expect(bobs).toEqual([]);
    expect(
      (await list<Row>(acme, `/projects/assignmentbudget?q[range_start]=2026-06-03&q[employee_id]=${ada}`)).map(
        (b) => b.assignment_id,
      ),
    ).toContain(later);
  });

  it('an unknown parameter, a day that does not exist or a limit that is not a number answers 400', async () => {
    for (const q of ['q[project_id]=x', 'q[range_start]=2026-02-30', 'limit=ten']) {
      const res = await acme.v2('GET', `/projects/assignmentbudget?${q}`);
      expect(res.status, `${q}: ${res.text}`).toBe(400);
    }
  });
});
