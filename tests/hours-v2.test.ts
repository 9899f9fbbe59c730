import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from './support/crm.js';
import { type Bookable, bookable, conforms, errorsOf, hoursBody, hoursFingerprint, v2Data, v2Post } from './support/hours.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/** Hours, time and costs (issue 10): hours/hours and its rules through v2. */

let t: TestService;
let acme: ApiClient;
let other: ApiClient;
let b: Bookable;

type Row = Record<string, unknown> & { id: string };

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  other = await t.environment('other');
  b = await bookable(acme, 'Main');
});
afterAll(() => t?.stop());

/** A refused write answers `status`, names `mentions`, and changes nothing. */
async function refused(method: string, path: string, body: unknown, mentions: string, status = 400) {
  const before = await hoursFingerprint(t);
  const res = await acme.v2(method, path, body);
  expect(res.status, res.text).toBe(status);
  expect(errorsOf(res)).toContain(mentions);
  expect(await hoursFingerprint(t)).toBe(before);
}

describe('hours/hours', () => {
  it('POST, GET, PUT and DELETE in the reference shape (GetHours)', async () => {
    const id = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-03' }));
    const h = await v2Data<Row>(acme, `/hours/hours/${id}`);
    expect(h).toMatchObject({
      id,
      employee: { id: b.employee },
      project: { id: b.project },
      projectservice: { id: b.service },
      type: { id: b.hourType },
      duration_in_minutes: 120,
      hours: 2,
      start_date: '2026-03-03',
      billable: true,
      note: 'Work',
      tariff: 100,
      status: 'open',
      approvalstatus: { label: 'Open' },
      invoice_id: null,
    });
    conforms('GetHours', h, ['is_editable', 'is_deletable']);
    expect((await acme.v2('PUT', `/hours/hours/${id}`, { duration_in_minutes: 90, note: 'Less' })).status).toBe(200);
    expect(await v2Data<Row>(acme, `/hours/hours/${id}`)).toMatchObject({ duration_in_minutes: 90, hours: 1.5, note: 'Less' });
    const listed = await v2Data<Row[]>(
      acme,
      `/hours/hours?q[employee.id]=${b.employee}&q[start_date][ge]=2026-03-02&q[start_date][le]=2026-03-08`,
    );
    expect(listed.map((r) => r.id)).toContain(id);
    expect((await acme.v2('DELETE', `/hours/hours/${id}`)).status).toBe(200);
    expect((await acme.v2('GET', `/hours/hours/${id}`)).status).toBe(404);
  });

  it('hours of one environment are not seen from another', async () => {
    const id = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-04' }));
    expect((await other.v2('GET', `/hours/hours/${id}`)).status).toBe(404);
    expect((await v2Data<Row[]>(other, '/hours/hours')).map((r) => r.id)).not.toContain(id);
    await acme.v2('DELETE', `/hours/hours/${id}`);
  });

  it('hours by day, hours updated since and hour counts (metadata=count)', async () => {
    const x = await bookable(acme, 'Counting');
    const ids = [
      await v2Post(acme, '/hours/hours', hoursBody(x, { start_date: '2026-04-06' })),
      await v2Post(acme, '/hours/hours', hoursBody(x, { start_date: '2026-04-07' })),
      await v2Post(acme, '/hours/hours', hoursBody(x, { start_date: '2026-04-07', duration_in_minutes: 30 })),
    ];
    const day = await v2Data<Row[]>(acme, `/hours/hours?q[employee.id]=${x.employee}&q[start_date]=2026-04-07`);
    expect(day.map((r) => r.id).sort()).toEqual([ids[1], ids[2]].sort());
    const res = await acme.v2('GET', `/hours/hours?q[project.id]=${x.project}&metadata=count&limit=1`);
    expect((res.body as Envelope).metadata?.count).toBe(3);
    const since = await v2Data<Row[]>(
      acme,
      `/hours/hours?q[updated_at][ge]=2000-01-01&q[project.id]=${x.project}&sort=-updated_at`,
    );
    expect(since).toHaveLength(3);
  });
});

describe('contract rules on hours/hours', () => {
  it('2025-03: POST hours/hours with a start_date outside the assignment period is refused', async () => {
    await refused('POST', '/hours/hours', hoursBody(b, { start_date: '2026-07-15' }), 'outside_assignment_period');
  });

  it('2025-03: PUT hours/hours with a start_date outside the assignment period is refused', async () => {
    const id = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-05' }));
    await refused('PUT', `/hours/hours/${id}`, { start_date: '2026-01-15' }, 'outside_assignment_period');
    expect((await acme.v2('PUT', `/hours/hours/${id}`, { start_date: '2026-06-30' })).status).toBe(200);
  });

  it('2025-07: start_date and until_date of the service on hours/hours follow its registration timeframe', async () => {
    const id = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-06' }));
    const h = await v2Data<{ projectservice: Row }>(acme, `/hours/hours/${id}`);
    expect(h.projectservice).toMatchObject({ id: b.service, start_date: '2026-01-01', until_date: '2026-12-31' });
    await acme.v2('PUT', `/projects/service/${b.service}`, { write_hours_end_date: '2026-11-30' });
    const again = await v2Data<{ projectservice: Row }>(acme, `/hours/hours/${id}`);
    expect(again.projectservice.until_date).toBe('2026-11-30');
  });

  it('2025-09: is_editable and is_deletable on hours/hours appear only when selected', async () => {
    const id = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-09' }));
    const plain = await v2Data<Row>(acme, `/hours/hours/${id}`);
    expect(plain).not.toHaveProperty('is_editable');
    expect(plain).not.toHaveProperty('is_deletable');
    const selected = await v2Data<Row>(acme, `/hours/hours/${id}?select=is_editable,is_deletable`);
    expect(selected).toEqual({ id, is_editable: { value: true, reason: null }, is_deletable: { value: true, reason: null } });
    const listed = await v2Data<Row[]>(acme, `/hours/hours?q[id]=${id}&select=is_editable`);
    expect(listed).toEqual([{ id, is_editable: { value: true, reason: null } }]);
  });

  it('2025-09: an approved or invoiced hour is neither editable nor deletable', async () => {
    const x = await bookable(acme, 'Locking');
    const approved = await v2Post(acme, '/hours/hours', hoursBody(x, { start_date: '2026-03-10' }));
    const invoiced = await v2Post(acme, '/hours/hours', hoursBody(x, { start_date: '2026-03-17' }));
    await v2Post(acme, '/hours/submit', { employee_id: x.employee, start_date: '2026-03-10' });
    await v2Post(acme, '/hours/approval', {
      employee_id: x.employee,
      date: '2026-03-10',
      approvalstatus_id: await statusId('approved'),
    });
    const env = (await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`))[0]?.id;
    await t.db.query(`INSERT INTO invoice (id, environment_id, updated_at) VALUES ('invoice:hours1', $1, now())`, [env]);
    await t.db.query(`UPDATE hour_registration SET invoice_id = 'invoice:hours1' WHERE id = $1`, [invoiced]);
    for (const id of [approved, invoiced]) {
      const h = await v2Data<Row>(acme, `/hours/hours/${id}?select=is_editable,is_deletable,locked`);
      expect(h).toMatchObject({ is_editable: { value: false }, is_deletable: { value: false }, locked: true });
      conforms('IsSatisfied', h.is_editable);
      expect(JSON.stringify(h.is_deletable)).toMatch(id === invoiced ? /invoiced/ : /approved/);
      await refused('PUT', `/hours/hours/${id}`, { note: 'changed' }, 'hours_locked');
      await refused('DELETE', `/hours/hours/${id}`, undefined, 'hours_locked');
    }
  });

  it('2021: is_productive on hours follows the hour type', async () => {
    const id = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-11' }));
    expect((await v2Data<Row>(acme, `/hours/hours/${id}`)).is_productive).toBe(true);
    await t.db.query(`UPDATE hour_type SET type = 'leave' WHERE id = $1`, [b.hourType]);
    expect((await v2Data<Row>(acme, `/hours/hours/${id}`)).is_productive).toBe(false);
    await t.db.query(`UPDATE hour_type SET type = 'normal' WHERE id = $1`, [b.hourType]);
  });

  it('2021: hours carry custom_fields, filterable like the others', async () => {
    // a definition of the hours model (no v2 path defines them; the definitions are the customfields area's)
    await t.db.query(
      `INSERT INTO custom_field (id, environment_id, model_id, model_key, type_id, name, label, updated_at)
       SELECT 'customfield:hours-ticket', e.id, m.id, 'hours', ty.id, 'ticket', 'Ticket', now()
         FROM environment e
         JOIN custom_field_model m ON m.environment_id = e.id AND m.key = 'hours'
         JOIN custom_field_type ty ON ty.environment_id = e.id AND ty.value_type = 'Text'
        WHERE e.name = 'acme' LIMIT 1`,
    );
    const id = await v2Post(
      acme,
      '/hours/hours',
      hoursBody(b, { start_date: '2026-03-12', custom_fields: [{ name: 'ticket', value: 'T-1' }] }),
    );
    const h = await v2Data<{ custom_fields: { name: string; value: string }[] }>(acme, `/hours/hours/${id}`);
    expect(h.custom_fields.find((c) => c.name === 'ticket')?.value).toBe('T-1');
    const found = await v2Data<Row[]>(acme, '/hours/hours?q[custom_fields.ticket]=T-1');
    expect(found.map((r) => r.id)).toEqual([id]);
  });
});

async function statusId(key: string): Promise<string> {
  const rows = await t.db.query<{ id: string }>(
    `SELECT s.id FROM approval_status s JOIN environment e ON e.id = s.environment_id WHERE e.name = 'acme' AND s.key = $1`,
    [key],
  );
  return rows[0]?.id as string;
}

describe('booking rules', () => {
  it('hours can be booked only on a project service with track_hours', async () => {
    const x = await bookable(acme, 'Untracked');
    await acme.v2('PUT', `/projects/service/${x.service}`, { track_hours: false });
    await refused('POST', '/hours/hours', hoursBody(x), 'service_does_not_track_hours');
  });

  it('hours can be booked only with an hour type that the service carries', async () => {
    await refused('POST', '/hours/hours', hoursBody(b, { type_id: b.otherType }), 'hour_type_not_on_service');
  });

  it('a booking on a closed project is refused with a clear message', async () => {
    const x = await bookable(acme, 'Closing');
    await t.db.query(
      `UPDATE project SET project_status_id = (SELECT s.id FROM project_status s WHERE s.environment_id = project.environment_id AND s.is_closed LIMIT 1) WHERE id = $1`,
      [x.project],
    );
    await refused('POST', '/hours/hours', hoursBody(x), 'is closed');
  });

  it('a booking on an invoiced service is refused with a clear message', async () => {
    const x = await bookable(acme, 'Invoiced');
    await t.db.query(`UPDATE project_service SET status = 'invoiced' WHERE id = $1`, [x.service]);
    await refused('POST', '/hours/hours', hoursBody(x), 'is invoiced');
  });

  it('a booking for an employee without an assignment on the service is refused with a clear message', async () => {
    const stranger = await v2Post(acme, '/hrm/employee', { name: 'Not Assigned' });
    await refused('POST', '/hours/hours', hoursBody(b, { employee_id: stranger }), 'has no assignment');
  });

  it('hours of one employee on one day may not exceed 24', async () => {
    const x = await bookable(acme, 'Long day');
    await v2Post(acme, '/hours/hours', hoursBody(x, { start_date: '2026-03-13', duration_in_minutes: 1000 }));
    await refused(
      'POST',
      '/hours/hours',
      hoursBody(x, { start_date: '2026-03-13', duration_in_minutes: 441 }),
      'day_over_24_hours',
    );
    await v2Post(acme, '/hours/hours', hoursBody(x, { start_date: '2026-03-13', duration_in_minutes: 440 }));
  });

  it('billable follows the service line unless the booking says otherwise where the line allows it', async () => {
    const yes = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-16' }));
    expect((await v2Data<Row>(acme, `/hours/hours/${yes}`)).billable).toBe(true);
    const no = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-16', type_id: b.unbillableType }));
    expect((await v2Data<Row>(acme, `/hours/hours/${no}`)).billable).toBe(false);
    // a billable line of a service on hours may be booked as not billable …
    const said = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-16', billable: false }));
    expect((await v2Data<Row>(acme, `/hours/hours/${said}`)).billable).toBe(false);
    // … a line that is not billable cannot be booked as billable
    await refused(
      'POST',
      '/hours/hours',
      hoursBody(b, { start_date: '2026-03-16', type_id: b.unbillableType, billable: true }),
      'billable_not_allowed',
    );
  });
});

describe('bad input on hours/hours: 400, nothing changes', () => {
  it('negative or absurd durations', async () => {
    await refused('POST', '/hours/hours', hoursBody(b, { duration_in_minutes: -60 }), 'duration_in_minutes');
    await refused('POST', '/hours/hours', hoursBody(b, { duration_in_minutes: 100_000 }), 'duration_in_minutes');
    await refused('POST', '/hours/hours', hoursBody(b, { duration_in_minutes: undefined, hours: 25 }), 'hours');
    await refused('POST', '/hours/hours', hoursBody(b, { duration_in_minutes: 0 }), 'duration_in_minutes');
  });

  it('an end before its start', async () => {
    await refused(
      'POST',
      '/hours/hours',
      hoursBody(b, { duration_in_minutes: undefined, start_date: '2026-03-02 10:00:00', end_date: '2026-03-02 09:00:00' }),
      'end_date',
    );
  });

  it('a day in a month that does not have it', async () => {
    await refused('POST', '/hours/hours', hoursBody(b, { start_date: '2026-02-30' }), 'start_date');
    await refused('POST', '/hours/hours', hoursBody(b, { start_date: '2026-04-31' }), 'start_date');
  });

  it('a booking on a service of another environment', async () => {
    const theirs = await bookable(other, 'Theirs');
    await refused('POST', '/hours/hours', hoursBody(b, { projectservice_id: theirs.service }), 'projectservice_id');
  });
});

describe('budgets', () => {
  it('planningBudget of services and projects shows real spent values from hours (hours × tariff) and costs', async () => {
    const x = await bookable(acme, 'Budget');
    await v2Post(acme, '/hours/hours', hoursBody(x, { start_date: '2026-03-02', duration_in_minutes: 90 }));
    await v2Post(
      acme,
      '/hours/hours',
      hoursBody(x, { start_date: '2026-04-01', duration_in_minutes: 60, type_id: x.unbillableType }),
    );
    const service = await v2Data<Row>(acme, `/projects/service/${x.service}/planningBudget?by=projectservicehourstype`);
    // 1.5 h × 100 + 1 h × 80
    expect(service).toMatchObject({
      hours: { amount_spent: 2.5, value_spent: 230 },
      costs: { value_spent: 0 },
      total: { value_spent: 230 },
    });
    const lines = service.hour_types as { hourstype_id: string; amount_spent: number; value_spent: number }[];
    expect(lines.find((l) => l.hourstype_id === x.hourType)).toMatchObject({ amount_spent: 1.5, value_spent: 150 });
    expect(lines.find((l) => l.hourstype_id === x.unbillableType)).toMatchObject({ amount_spent: 1, value_spent: 80 });
    const until = await v2Data<Row>(acme, `/projects/service/${x.service}/planningBudget?until_date=2026-03-31`);
    expect(until).toMatchObject({ hours: { amount_spent: 1.5, value_spent: 150 } });
    const project = await v2Data<Row>(acme, `/projects/project/${x.project}/planningBudget`);
    expect(project).toMatchObject({ hours: { amount_spent: 2.5, value_spent: 230 }, total: { value_spent: 230 } });
  });

  it('the project’s budget figures on v2 reads follow the same values', async () => {
    const x = await bookable(acme, 'Budget read');
    await v2Post(acme, '/hours/hours', hoursBody(x, { start_date: '2026-03-03', duration_in_minutes: 120 }));
    const p = await v2Data<{ budget: Record<string, Record<string, number>> }>(acme, `/projects/project/${x.project}`);
    expect(p.budget).toMatchObject({ hours: { amount_spent: 2, value_spent: 200 }, total: { value_spent: 200 } });
  });
});

describe('what hours keep', () => {
  it('a service, a project or an employee with hours cannot be deleted while the hours exist (400, nothing changes)', async () => {
    const x = await bookable(acme, 'Keeps');
    const id = await v2Post(acme, '/hours/hours', hoursBody(x, { start_date: '2026-03-20' }));
    for (const path of [`/projects/service/${x.service}`, `/projects/project/${x.project}`, `/hrm/employee/${x.employee}`]) {
      const before = await hoursFingerprint(t);
      const res = await acme.v2('DELETE', path);
      expect([400, 409, 422], `${path}: ${res.text}`).toContain(res.status);
      expect(await hoursFingerprint(t)).toBe(before);
    }
    expect((await acme.v2('GET', `/hours/hours/${id}`)).status).toBe(200);
  });
});

describe('concurrent bookings', () => {
  it('parallel bookings of one employee-day never exceed 24 hours, and a timer started twice at once runs once', async () => {
    const x = await bookable(acme, 'Parallel');
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        acme.v2('POST', '/hours/hours', hoursBody(x, { start_date: '2026-05-11', duration_in_minutes: 400 })),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 400, 400]);
    const [sum] = await t.db.query<{ minutes: number }>(
      `SELECT sum(duration_minutes)::int AS minutes FROM hour_registration WHERE employee_id = $1 AND start_date = '2026-05-11'`,
      [x.employee],
    );
    expect(sum?.minutes).toBe(1200);
    const timers = await Promise.all(
      Array.from({ length: 4 }, () =>
        acme.v2('POST', '/timers/timer', { employee_id: x.employee, projectservice_id: x.service, hourstype_id: x.hourType }),
      ),
    );
    expect(timers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
  });
});
