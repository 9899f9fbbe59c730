import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceData } from './support/projects.js';
import { bookable, type Bookable, conforms, errorsOf, hoursBody, hoursFingerprint, v2Data, v2Post } from './support/hours.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/** Timers, mileage and expenses through v2 (issue 10). */

let t: TestService;
let acme: ApiClient;
let b: Bookable;

type Row = Record<string, unknown> & { id: string };

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  b = await bookable(acme, 'Time');
});
afterAll(() => t?.stop());

async function refused(method: string, path: string, payload: unknown, mentions: string, status = 400) {
  const before = await hoursFingerprint(t);
  const res = await acme.v2(method, path, payload);
  expect(res.status, res.text).toBe(status);
  expect(errorsOf(res)).toContain(mentions);
  expect(await hoursFingerprint(t)).toBe(before);
}

async function eventsOf(id: string): Promise<string[]> {
  const rows = await t.db.query<{ type: string }>(`SELECT type FROM event WHERE entity_id = $1 ORDER BY seq`, [id]);
  return rows.map((r) => r.type);
}

describe('timers/timer', () => {
  it('POST, GET, PUT and DELETE in the reference shape (GetTimer), each with its event', async () => {
    const x = await bookable(acme, 'Timer');
    const id = await v2Post(acme, '/timers/timer', {
      employee_id: x.employee,
      projectservice_id: x.service,
      hourstype_id: x.hourType,
      metadata: 'ticket 7',
    });
    const timer = await v2Data<Row>(acme, `/timers/timer/${id}`);
    expect(timer).toMatchObject({
      state: 'running',
      metadata: 'ticket 7',
      employee: { id: x.employee },
      projectservice: { id: x.service },
    });
    conforms('GetTimer', timer);
    expect((await acme.v2('PUT', `/timers/timer/${id}`, { state: 'paused' })).status).toBe(200);
    expect((await v2Data<Row>(acme, `/timers/timer/${id}`)).state).toBe('paused');
    expect((await acme.v2('PUT', `/timers/timer/${id}`, { state: 'running' })).status).toBe(200);
    expect((await acme.v2('DELETE', `/timers/timer/${id}`)).status).toBe(200);
    expect(await eventsOf(id)).toEqual(['timer.created', 'timer.updated', 'timer.updated', 'timer.deleted']);
  });

  it('at most one running timer per employee', async () => {
    const x = await bookable(acme, 'One timer');
    const timer = { employee_id: x.employee, projectservice_id: x.service, hourstype_id: x.hourType };
    const first = await v2Post(acme, '/timers/timer', timer);
    // a timer started twice: 400, nothing changes
    await refused('POST', '/timers/timer', timer, 'timer_already_running');
    const paused = await v2Post(acme, '/timers/timer', { ...timer, state: 'paused' });
    await refused('PUT', `/timers/timer/${paused}`, { state: 'running' }, 'timer_already_running');
    expect((await acme.v2('PUT', `/timers/timer/${first}`, { state: 'finished' })).status).toBe(200);
    expect((await acme.v2('PUT', `/timers/timer/${paused}`, { state: 'running' })).status).toBe(200);
    await refused('PUT', `/timers/timer/${first}`, { state: 'running' }, 'timer_finished');
  });
});

describe('mileage/mileage and hours/mileage', () => {
  it('POST, GET, PUT and DELETE in the reference shape (GetMileage); hours/mileage shows the same data', async () => {
    const hours = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-02' }));
    const id = await v2Post(acme, '/mileage/mileage', {
      employee_id: b.employee,
      project_id: b.project,
      mileage: 42.5,
      start_date: '2026-03-02',
      related_hours_id: hours,
      note: 'Client visit',
    });
    const m = await v2Data<Row>(acme, `/mileage/mileage/${id}`);
    expect(m).toMatchObject({ mileage: 42.5, start_date: '2026-03-02', note: 'Client visit', employee: { id: b.employee } });
    conforms('GetMileage', m);
    expect(await v2Data<Row>(acme, `/hours/mileage/${id}`)).toEqual(m);
    expect((await acme.v2('PUT', `/mileage/mileage/${id}`, { mileage: 40 })).status).toBe(200);
    expect((await v2Data<Row>(acme, `/mileage/mileage/${id}`)).mileage).toBe(40);
    expect((await acme.v2('DELETE', `/mileage/mileage/${id}`)).status).toBe(200);
    expect(await eventsOf(id)).toEqual(['mileage.created', 'mileage.updated', 'mileage.deleted']);
  });

  it('2021: related_hours_id on mileage', async () => {
    const hours = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-03' }));
    const id = await v2Post(acme, '/mileage/mileage', {
      employee_id: b.employee,
      project_id: b.project,
      mileage: 10,
      start_date: '2026-03-03',
      related_hours_id: hours,
    });
    expect((await v2Data<Row>(acme, `/mileage/mileage/${id}`)).related_hours_id).toBe(hours);
    expect(await v2Data<Row[]>(acme, `/mileage/mileage?q[related_hours_id]=${hours}`)).toHaveLength(1);
    const stranger = await bookable(acme, 'Stranger');
    const theirs = await v2Post(acme, '/hours/hours', hoursBody(stranger, { start_date: '2026-03-03' }));
    await refused('PUT', `/mileage/mileage/${id}`, { related_hours_id: theirs }, 'related_hours_id');
    await refused('PUT', `/mileage/mileage/${id}`, { related_hours_id: 'hours:missing' }, 'related_hours_id');
  });

  it('bad input: negative or absurd mileage, a day a month does not have', async () => {
    const base = { employee_id: b.employee, project_id: b.project, start_date: '2026-03-04' };
    await refused('POST', '/mileage/mileage', { ...base, mileage: -3 }, 'mileage');
    await refused('POST', '/mileage/mileage', { ...base, mileage: 1_000_000 }, 'mileage');
    await refused('POST', '/mileage/mileage', { ...base, mileage: 3, start_date: '2026-06-31' }, 'start_date');
  });
});

describe('expenses: costs/expense, hours/employeeexpenses, hours/employeeexpense/{id}', () => {
  async function costService(extra: Record<string, unknown> = {}) {
    const ref = await referenceData(acme);
    const costType = ref.costTypes[0]?.id as string;
    const service = await v2Post(acme, '/projects/service', {
      project_id: b.project,
      name: 'Costs',
      invoice_method: 'Hours',
      hour_types: [{ hourtype_id: costType, billable: true, tariff: 12 }],
      ...extra,
    });
    return { service, costType };
  }

  it('costs are booked on a service with track_cost, read in the reference shape (Expense), with note', async () => {
    const { service, costType } = await costService();
    const id = await v2Post(acme, '/costs/expense', {
      employee_id: b.employee,
      service_id: service,
      costtype_id: costType,
      date: '2026-03-05',
      amount: 3,
      note: 'Parking',
    });
    const e = await v2Data<Row>(acme, `/costs/expense/${id}`);
    expect(e).toMatchObject({
      amount: 3,
      tariff: 12,
      total_price: 36,
      note: 'Parking',
      is_billable: true,
      date: '2026-03-05',
      service_id: service,
    });
    conforms('Expense', e);
    expect(await v2Data<Row>(acme, `/hours/employeeexpense/${id}`)).toEqual(e);
    expect((await v2Data<Row[]>(acme, `/hours/employeeexpenses?q[employee.id]=${b.employee}`)).map((r) => r.id)).toContain(id);
    // PUT and DELETE are our addition: an approved or invoiced expense can no longer change
    expect((await acme.v2('PUT', `/costs/expense/${id}`, { amount: 4, note: 'Parking, two days' })).status).toBe(200);
    expect(await v2Data<Row>(acme, `/costs/expense/${id}`)).toMatchObject({
      amount: 4,
      total_price: 48,
      note: 'Parking, two days',
    });
    await t.db.query(`UPDATE expense SET approval_status = 'approved' WHERE id = $1`, [id]);
    const before = await hoursFingerprint(t);
    const locked = await acme.v2('DELETE', `/costs/expense/${id}`);
    expect(locked.status).toBe(400);
    expect(errorsOf(locked)).toContain('expense_locked');
    expect(await hoursFingerprint(t)).toBe(before);
    await t.db.query(`UPDATE expense SET approval_status = 'open' WHERE id = $1`, [id]);
    expect((await acme.v2('DELETE', `/costs/expense/${id}`)).status).toBe(200);
    expect(await eventsOf(id)).toEqual(['expense.created', 'expense.updated', 'expense.deleted']);
  });

  it('costs can be booked only on a service with track_cost', async () => {
    const { service, costType } = await costService({ track_cost: false });
    await refused(
      'POST',
      '/costs/expense',
      { employee_id: b.employee, service_id: service, costtype_id: costType, date: '2026-03-05', amount: 1 },
      'service_does_not_track_cost',
    );
  });

  it('2021: attachments on expenses, honouring is_attachment_allowed of the purchase type', async () => {
    const { service, costType } = await costService();
    const env = (await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`))[0]?.id;
    await t.db.query(
      `INSERT INTO document (id, environment_id, title, upload_id, storage_key, file_name, file_size, content_type, updated_at)
       VALUES ('document:receipt', $1, 'Receipt', 'u1', 'k1', 'receipt.pdf', 100, 'application/pdf', now())`,
      [env],
    );
    const body = {
      employee_id: b.employee,
      service_id: service,
      costtype_id: costType,
      date: '2026-03-06',
      amount: 1,
      attachments: [{ id: 'document:receipt' }],
    };
    const id = await v2Post(acme, '/costs/expense', body);
    expect((await v2Data<{ attachments: Row[] }>(acme, `/costs/expense/${id}`)).attachments).toEqual([
      { id: 'document:receipt', file_name: 'receipt.pdf', file_hash: null },
    ]);
    await t.db.query(`UPDATE cost_type SET is_attachment_allowed = false WHERE id = $1`, [costType]);
    await refused('POST', '/costs/expense', body, 'attachment_not_allowed');
    await t.db.query(`UPDATE cost_type SET is_attachment_allowed = true WHERE id = $1`, [costType]);
  });

  it('expenses are read-only on hours/employeeexpenses', async () => {
    expect((await acme.v2('POST', '/hours/employeeexpenses', {})).status).toBe(405);
  });
});

describe('hours/projectservices and costs/projectservices', () => {
  it('list the project services hours, or costs, can be booked on', async () => {
    const x = await bookable(acme, 'Bookable');
    const noCosts = await v2Post(acme, '/projects/service', {
      project_id: x.project,
      name: 'Hours only',
      invoice_method: 'Hours',
      track_cost: false,
    });
    await acme.v2('PUT', `/projects/service/${x.service}`, { track_hours: false });
    const forHours = await v2Data<Row[]>(acme, `/hours/projectservices?q[project.id]=${x.project}`);
    expect(forHours.map((s) => s.id)).toEqual([noCosts]);
    const forCosts = await v2Data<Row[]>(acme, `/costs/projectservices?q[project.id]=${x.project}`);
    expect(forCosts.map((s) => s.id)).toEqual([x.service]);
    expect(forCosts[0]).toMatchObject({
      name: 'Bookable Work',
      start_date: '2026-01-01',
      until_date: '2026-12-31',
      project: { id: x.project },
    });
    expect((await acme.v2('GET', `/hours/projectservices/${x.service}`)).status).toBe(404);
    expect((await acme.v2('POST', '/hours/projectservices', {})).status).toBe(405);
  });

  it('leave out the services of a closed project, for a caller with the hours right only', async () => {
    const x = await bookable(acme, 'Closing');
    const closed = (await v2Data<Row[]>(acme, '/projects/projectstatus')).find((s) => s.is_closed === true)?.id;
    expect((await acme.v2('PUT', `/projects/project/${x.project}`, { project_status_id: closed })).status).toBe(200);
    const hoursOnly = await t.user('acme', 'hours-only@acme.test', { hours: 'write' });
    expect(await v2Data<Row[]>(hoursOnly, `/hours/projectservices?q[project.id]=${x.project}`)).toEqual([]);
    expect(await v2Data<Row[]>(hoursOnly, `/costs/projectservices?q[project.id]=${x.project}`)).toEqual([]);
    const open = await bookable(acme, 'Still open');
    expect((await v2Data<Row[]>(hoursOnly, `/hours/projectservices?q[project.id]=${open.project}`)).map((s) => s.id)).toEqual([
      open.service,
    ]);
  });
});
