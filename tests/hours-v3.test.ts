import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookable, type Bookable, hoursFingerprint, v2Data } from './support/hours.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { documentValidator, expectProblem } from './support/v3.js';

/** Hours in v3 (issue 10): hours.list/get/create/edit/delete, submit/approve/reject, timesheet.list, timer.start/stop, events. */

let t: TestService;
let acme: ApiClient;
let other: ApiClient;
let b: Bookable;
let matches: Awaited<ReturnType<typeof documentValidator>>;

type Row = Record<string, unknown> & { id: string };
type Page = { items: Row[]; page: number; itemsPerPage: number; totalItems: number; totalPages: number };

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  other = await t.environment('other');
  matches = await documentValidator(acme);
  b = await bookable(acme, 'V3');
});
afterAll(() => t?.stop());

const body = (extra: Record<string, unknown> = {}) => ({
  employeeId: b.employee,
  projectServiceId: b.service,
  hourTypeId: b.hourType,
  date: '2026-03-02',
  durationMinutes: 60,
  ...extra,
});

async function create(extra: Record<string, unknown> = {}): Promise<Row> {
  const res = await acme.v3('POST', '/hours.create', body(extra));
  expect(res.status, res.text).toBe(201);
  return res.body as Row;
}

async function eventsOf(id: string): Promise<string[]> {
  const rows = await t.db.query<{ type: string }>(`SELECT type FROM event WHERE entity_id = $1 ORDER BY seq`, [id]);
  return rows.map((r) => r.type);
}

/** 422 (or 400 for what the v3 shape itself refuses), and nothing changed. */
async function refused(path: string, payload: unknown, status = 422) {
  const before = await hoursFingerprint(t);
  const res = await acme.v3('POST', path, payload);
  expectProblem(res, status);
  expect(await hoursFingerprint(t)).toBe(before);
  return res;
}

describe('v3 hours commands and queries', () => {
  it('hours.create (201), hours.get, hours.edit (200) and hours.delete, each with its event', async () => {
    const h = await create({ description: 'v3' });
    matches('Hours.Hours', h);
    expect(h).toMatchObject({
      employee: { id: b.employee },
      date: '2026-03-02',
      durationMinutes: 60,
      billable: true,
      approvalStatus: 'open',
    });
    const got = await acme.v3('GET', `/hours.get/${h.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(h);
    const edited = await acme.v3('POST', `/hours.edit/${h.id}`, { durationMinutes: 90 });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ id: h.id, durationMinutes: 90 });
    const removed = await acme.v3('POST', `/hours.delete/${h.id}`, {});
    expect(removed.status, removed.text).toBe(200);
    expectProblem(await acme.v3('GET', `/hours.get/${h.id}`), 404);
    expect(await eventsOf(h.id)).toEqual(['hours.created', 'hours.updated', 'hours.deleted']);
    expectProblem(await other.v3('GET', `/hours.get/${(await create({ date: '2026-03-03' })).id}`), 404);
  });

  it('hours.list with filters employeeId, projectId, date[ge] and date[le]', async () => {
    const x = await bookable(acme, 'V3 list');
    const make = (date: string) =>
      acme.v3('POST', '/hours.create', {
        ...body({ date }),
        employeeId: x.employee,
        projectServiceId: x.service,
        hourTypeId: x.hourType,
      });
    for (const d of ['2026-04-06', '2026-04-08', '2026-04-13']) expect((await make(d)).status).toBe(201);
    const res = await acme.v3('GET', `/hours.list?employeeId=${x.employee}&date[ge]=2026-04-06&date[le]=2026-04-12`);
    expect(res.status, res.text).toBe(200);
    const page = res.body as Page;
    expect(page.items.map((i) => i.date)).toEqual(['2026-04-06', '2026-04-08']);
    expect(page.totalItems).toBe(2);
    for (const i of page.items) matches('Hours.Hours', i);
    const byProject = (await acme.v3('GET', `/hours.list?projectId=${x.project}&itemsPerPage=2`)).body as Page;
    expect(byProject).toMatchObject({ totalItems: 3, totalPages: 2, itemsPerPage: 2 });
    expectProblem(await acme.v3('GET', '/hours.list?date[ge]=2026-02-30'), 400);
    expectProblem(await acme.v3('GET', '/hours.list?week=1'), 400);
  });

  it('timesheet.list: minutes per day of each employee, week, service and hour type', async () => {
    const x = await bookable(acme, 'V3 sheet');
    for (const [date, minutes] of [
      ['2026-05-04', 60],
      ['2026-05-04', 30],
      ['2026-05-06', 120],
    ] as const) {
      const res = await acme.v3('POST', '/hours.create', {
        ...body({ date, durationMinutes: minutes }),
        employeeId: x.employee,
        projectServiceId: x.service,
        hourTypeId: x.hourType,
      });
      expect(res.status, res.text).toBe(201);
    }
    const res = await acme.v3('GET', `/timesheet.list?employeeId=${x.employee}&date[ge]=2026-05-01&date[le]=2026-05-31`);
    expect(res.status, res.text).toBe(200);
    const page = res.body as Page;
    expect(page.totalItems).toBe(1);
    const row = page.items[0] as Record<string, unknown>;
    matches('Hours.TimesheetRow', row);
    expect(row).toMatchObject({ weekStart: '2026-05-04', totalMinutes: 210, status: 'open', projectServiceId: x.service });
    expect((row.days as { minutes: number }[]).map((d) => d.minutes)).toEqual([90, 0, 120, 0, 0, 0, 0]);
  });

  it('hours.submit, hours.approve and hours.reject move the week; approved hours are locked (422)', async () => {
    const x = await bookable(acme, 'V3 flow');
    const h = (
      await acme.v3('POST', '/hours.create', {
        ...body({ date: '2026-03-16' }),
        employeeId: x.employee,
        projectServiceId: x.service,
        hourTypeId: x.hourType,
      })
    ).body as Row;
    const week = { employeeId: x.employee, date: '2026-03-18' };
    expect((await acme.v3('POST', '/hours.submit', week)).status).toBe(200);
    expect((await acme.v3('POST', '/hours.reject', week)).status).toBe(200);
    expect(((await acme.v3('GET', `/hours.get/${h.id}`)).body as Row).approvalStatus).toBe('rejected');
    expect((await acme.v3('POST', `/hours.edit/${h.id}`, { durationMinutes: 45 })).status).toBe(200);
    expect((await acme.v3('POST', '/hours.submit', week)).status).toBe(200);
    expect((await acme.v3('POST', '/hours.approve', week)).status).toBe(200);
    const locked = await acme.v3('GET', `/hours.get/${h.id}`);
    expect(locked.body).toMatchObject({ approvalStatus: 'approved', isEditable: false, isDeletable: false });
    await refused(`/hours.edit/${h.id}`, { durationMinutes: 30 });
    await refused(`/hours.delete/${h.id}`, {});
    await refused('/hours.approve', week);
    const history = await v2Data<Row[]>(acme, `/hours/approval?q[employee.id]=${x.employee}`);
    expect(history.map((a) => a.status)).toEqual(['submitted', 'rejected', 'submitted', 'approved']);
    expect(await eventsOf(h.id)).toEqual([
      'hours.created',
      'hours.updated',
      'hours.updated',
      'hours.updated',
      'hours.updated',
      'hours.updated',
    ]);
  });

  it('timer.start (201) and timer.stop book the duration as hours on the timer’s service', async () => {
    const x = await bookable(acme, 'V3 timer');
    const start = await acme.v3('POST', '/timer.start', {
      employeeId: x.employee,
      projectServiceId: x.service,
      hourTypeId: x.hourType,
    });
    expect(start.status, start.text).toBe(201);
    const timer = start.body as Row;
    matches('Timers.Timer', timer);
    expect(timer).toMatchObject({ state: 'running', employeeId: x.employee });
    // a timer started twice: refused, nothing changes
    await refused('/timer.start', { employeeId: x.employee, projectServiceId: x.service, hourTypeId: x.hourType });
    // ninety minutes ago
    await t.db.query(`UPDATE timer SET running_since = now() - interval '90 minutes' WHERE id = $1`, [timer.id]);
    const stop = await acme.v3('POST', `/timer.stop/${timer.id}`, { date: '2026-03-25' });
    expect(stop.status, stop.text).toBe(200);
    const stopped = stop.body as Row;
    expect(stopped).toMatchObject({ state: 'finished' });
    expect(stopped.secondsSpent).toBeGreaterThanOrEqual(5400);
    const hours = (await acme.v3('GET', `/hours.get/${stopped.relatedHoursId}`)).body as Row;
    expect(hours).toMatchObject({ source: 'timer', date: '2026-03-25', projectService: { id: x.service } });
    expect(hours.durationMinutes).toBeGreaterThanOrEqual(90);
    expect(await eventsOf(timer.id)).toEqual(['timer.created', 'timer.updated']);
    expect(await eventsOf(stopped.relatedHoursId as string)).toEqual(['hours.created']);
  });
});

describe('bad input in v3: 422, nothing changes', () => {
  it('negative or absurd durations', async () => {
    await refused('/hours.create', body({ durationMinutes: -5 }));
    await refused('/hours.create', body({ durationMinutes: 5000 }));
  });

  it('a day in a month that does not have it', async () => {
    await refused('/hours.create', body({ date: '2026-02-29' }));
  });

  it('a booking on a service of another environment', async () => {
    const theirs = await bookable(other, 'Theirs v3');
    await refused('/hours.create', body({ projectServiceId: theirs.service }));
  });

  it('a booking the rules refuse answers 422 with the reason', async () => {
    const res = await refused('/hours.create', body({ date: '2026-07-20' }));
    expect((res.body as { detail: string }).detail).toContain('outside_assignment_period');
  });
});
