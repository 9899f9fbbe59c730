import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractValidator } from './support/contract.js';
import { type Envelope, list, post } from './support/crm.js';
import { v2Get } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';
import { databaseFingerprint } from './support/snapshot.js';
import { documentValidator, expectBusinessRule, expectProblem } from './support/v3.js';

/** HRM time (issue 11): timetables (2024-10), contracts, leave and balances (2025-09, 2025-10), absence, hours/leave and hours/absence. */

let t: TestService;
let acme: ApiClient;
let validate: Awaited<ReturnType<typeof documentValidator>>;
const ids: Record<string, string> = {};

type Row = Record<string, unknown> & { id: string };
const errorsOf = (res: { body: unknown }) => ((res.body as Envelope).errors ?? []).join(' ');

const day = (hours: number, start = 9) => (hours ? { start_time: start, end_time: start + hours, hours } : { hours: 0 });
function week(hours: number[] = [8, 8, 8, 8, 8, 0, 0]): Record<string, unknown> {
  return Object.fromEntries(hours.map((h, n) => [`day_${n + 1}`, day(h)]));
}

/**
 * Where the reference is wrong for this service: hours are decimals (integer there), and
 * LeaveBalance.last_change is the date-time of the last change (a number there).
 */
const { conforms } = contractValidator((defs) => {
  for (const d of ['GetLeave', 'GetAbsence'])
    (defs[d] as { properties: Record<string, unknown> }).properties.hours = { type: 'number' };
  (defs.LeaveBalance as { properties: Record<string, unknown> }).properties.last_change = { type: 'string' };
});

async function lookup(table: string, where: string): Promise<string> {
  const rows = await t.db.query<{ id: string }>(
    `SELECT r.id FROM "${table}" r JOIN environment e ON e.id = r.environment_id WHERE e.name = 'acme' AND ${where} LIMIT 1`,
  );
  return rows[0]?.id as string;
}

async function eventTypes(entityId: string): Promise<string[]> {
  return (await t.db.query<{ type: string }>('SELECT type FROM event WHERE entity_id = $1 ORDER BY id', [entityId])).map(
    (e) => e.type,
  );
}

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  validate = await documentValidator(acme);
  ids.vacation = await lookup('leave_type', `r.label = 'Vacation'`);
  ids.special = await lookup('leave_type', `r.label = 'Special leave'`);
  ids.sickness = await lookup('absence_type', `r.label = 'Sickness'`);
  ids.env = (await t.db.query<{ id: string }>(`SELECT id FROM environment WHERE name = 'acme'`))[0]?.id as string;
});
afterAll(() => t?.stop());

describe('hrm/timetable', () => {
  it('2022-07: create, update and delete timetables (GetTimetable)', async () => {
    const employee = await post(acme, '/hrm/employee', { name: 'Tim Table' });
    const id = await post(acme, '/hrm/timetable', {
      employee_id: employee,
      start_date: '2025-01-01',
      end_date: '2025-12-31',
      has_odd_weeks: true,
      even_week: week(),
      odd_week: week([8, 8, 8, 8, 0, 0, 0]),
      productivity_target: 80,
    });
    const read = await v2Get<Row>(acme, `/hrm/timetable/${id}`);
    conforms('GetTimetable', read);
    expect(read).toMatchObject({
      employee: { id: employee, name: 'Tim Table' },
      start_date: '2025-01-01',
      end_date: '2025-12-31',
      productivity_target: 80,
      even_week: { day_1: { start_time: 9, end_time: 17, hours: 8 }, day_6: { start_time: null, end_time: null, hours: 0 } },
      odd_week: { day_5: { hours: 0 } },
    });
    expect((await acme.v2('PUT', `/hrm/timetable/${id}`, { productivity_target: 90 })).status).toBe(200);
    expect(await v2Get<Row>(acme, `/hrm/timetable/${id}`)).toMatchObject({ productivity_target: 90 });
    expect(await eventTypes(id)).toEqual(['timetable.created', 'timetable.updated']);
    expect((await acme.v2('DELETE', `/hrm/timetable/${id}`)).status).toBe(200);
    expect((await acme.v2('GET', `/hrm/timetable/${id}`)).status).toBe(404);
    expect(await eventTypes(id)).toEqual(['timetable.created', 'timetable.updated', 'timetable.deleted']);
  });

  describe('2024-10: timetable validation is strict on POST and PUT', () => {
    let employee: string;
    let existing: string;
    beforeAll(async () => {
      employee = await post(acme, '/hrm/employee', { name: 'Strict Stan' });
      existing = await post(acme, '/hrm/timetable', {
        employee_id: employee,
        start_date: '2024-01-01',
        end_date: '2024-12-31',
        even_week: week(),
      });
    });

    async function refused(method: 'POST' | 'PUT', body: Record<string, unknown>, mentions: string) {
      const before = await databaseFingerprint(t.db);
      const res = await acme.v2(method, method === 'POST' ? '/hrm/timetable' : `/hrm/timetable/${existing}`, body);
      expect(res.status, res.text).toBe(400);
      expect(errorsOf(res)).toContain(mentions);
      expect(await databaseFingerprint(t.db)).toEqual(before);
    }
    const base = () => ({ employee_id: employee, start_date: '2026-01-01', even_week: week() });

    it('2024-10: start_date ≤ end_date', async () => {
      await refused('POST', { ...base(), end_date: '2025-12-31' }, 'end_date');
      await refused('PUT', { end_date: '2023-12-31' }, 'end_date');
    });

    it('2024-10: no two timetables of one employee overlap', async () => {
      await refused('POST', { ...base(), start_date: '2024-06-01', end_date: '2025-01-31' }, 'overlaps timetable');
      await refused('POST', { ...base(), start_date: '2023-01-01' }, 'overlaps timetable');
      const later = await post(acme, '/hrm/timetable', base());
      await refused('PUT', { end_date: '2026-03-01' }, 'overlaps timetable');
      // another employee's timetables are no concern
      const other = await post(acme, '/hrm/employee', { name: 'Other Otto' });
      await post(acme, '/hrm/timetable', { ...base(), employee_id: other, start_date: '2024-03-01' });
      expect((await acme.v2('DELETE', `/hrm/timetable/${later}`)).status).toBe(200);
    });

    it('2024-10: hours per day between 0 and 24', async () => {
      await refused('POST', { ...base(), even_week: { ...week(), day_1: { hours: 25 } } }, 'even_week.day_1.hours');
      await refused('POST', { ...base(), even_week: { ...week(), day_2: { hours: -1 } } }, 'even_week.day_2.hours');
      await refused('PUT', { even_week: { ...week(), day_3: { hours: 24.5 } } }, 'even_week.day_3.hours');
    });

    it('2024-10: the even and odd week schedules are complete, with start and end hours that make sense', async () => {
      const { day_7: _gone, ...sixDays } = week();
      await refused('POST', { ...base(), even_week: sixDays }, 'even_week.day_7');
      await refused('POST', { ...base(), has_odd_weeks: true }, 'odd_week');
      await refused(
        'POST',
        { ...base(), even_week: { ...week(), day_1: { start_time: 17, end_time: 9, hours: 8 } } },
        'even_week.day_1.end_time',
      );
      await refused(
        'POST',
        { ...base(), even_week: { ...week(), day_1: { start_time: 9, end_time: 12, hours: 8 } } },
        'even_week.day_1.hours',
      );
      await refused(
        'POST',
        { ...base(), even_week: { ...week(), day_1: { start_time: 9, hours: 3 } } },
        'even_week.day_1.end_time',
      );
      await refused(
        'PUT',
        { has_odd_weeks: true, odd_week: { ...week(), day_4: { start_time: 8, end_time: 30, hours: 8 } } },
        'odd_week.day_4.end_time',
      );
    });

    it('2024-10: overlapping or reversed timetables answer 422 in v3 (timetable.create, timetable.edit), and nothing changes', async () => {
      const v3week = Object.fromEntries([8, 8, 8, 8, 8, 0, 0].map((h, n) => [`day${n + 1}`, { hours: h }]));
      const before = await databaseFingerprint(t.db);
      const overlapping = expectProblem(
        await acme.v3('POST', '/timetable.create', { employeeId: employee, startDate: '2024-06-01', evenWeek: v3week }),
        422,
      );
      expect(overlapping.detail).toContain('overlaps timetable');
      const reversed = expectProblem(
        await acme.v3('POST', '/timetable.create', {
          employeeId: employee,
          startDate: '2027-06-01',
          endDate: '2027-01-01',
          evenWeek: v3week,
        }),
        422,
      );
      expect(reversed.violations?.map((v) => v.propertyPath)).toEqual(['endDate']);
      const tooLong = expectProblem(
        await acme.v3('POST', `/timetable.edit/${existing}`, { evenWeek: { ...v3week, day2: { hours: 25 } } }),
        422,
      );
      expect(tooLong.violations?.map((v) => v.propertyPath)).toEqual(['evenWeek.day2.hours']);
      expect(await databaseFingerprint(t.db)).toEqual(before);
      const created = await acme.v3('POST', '/timetable.create', {
        employeeId: employee,
        startDate: '2030-01-01',
        evenWeek: v3week,
      });
      expect(created.status, created.text).toBe(201);
      validate('Hrm.Timetable', created.body);
      expect((await acme.v2('DELETE', `/hrm/timetable/${(created.body as Row).id}`)).status).toBe(200);
    });

    it('2024-10: an employee with hours outside every timetable is flagged, not refused', async () => {
      const flagged = await post(acme, '/hrm/employee', { name: 'Flagged Fiona' });
      await post(acme, '/hrm/timetable', {
        employee_id: flagged,
        start_date: '2025-01-01',
        end_date: '2025-12-31',
        even_week: week(),
      });
      // hour registrations as the hours area books them (it does not look at timetables, so nothing refuses them)
      const book = (id: string, date: string) =>
        t.db.query(
          `INSERT INTO hour_registration (id, environment_id, employee_id, project_id, project_service_id, hour_type_id, start_date,
                                          duration_minutes, billable, updated_at)
           SELECT $1, s.environment_id, $2, s.project_id, s.id, h.id, $3::date, 60, false, now()
             FROM project_service s JOIN hour_type h ON h.environment_id = s.environment_id
            WHERE s.environment_id = (SELECT environment_id FROM employee WHERE id = $2) LIMIT 1`,
          [id, flagged, date],
        );
      const project = await post(acme, '/projects/project', { name: 'Timed' });
      await post(acme, '/projects/service', { project_id: project, name: 'Work', invoice_method: 'FixedFee' });
      await book('hours:inside', '2025-06-02');
      const inside = await v2Get<Row>(acme, `/hrm/employee/${flagged}`);
      expect(inside.has_hours_outside_timetables).toBe(false);
      await book('hours:outside', '2026-02-02');
      expect((await v2Get<Row>(acme, `/hrm/employee/${flagged}`)).has_hours_outside_timetables).toBe(true);
      const listed = await list<Row>(acme, '/hrm/employee?q[has_hours_outside_timetables]=true');
      expect(listed.map((e) => e.id)).toContain(flagged);
      expect(listed.every((e) => e.has_hours_outside_timetables === true)).toBe(true);
      const v3 = await acme.v3('GET', `/employee.get/${encodeURIComponent(flagged)}`);
      expect(v3.body).toMatchObject({ hasHoursOutsideTimetables: true });
      validate('Hrm.Employee', v3.body);
      // a timetable that covers the day clears the flag
      await post(acme, '/hrm/timetable', { employee_id: flagged, start_date: '2026-01-01', even_week: week() });
      expect((await v2Get<Row>(acme, `/hrm/employee/${flagged}`)).has_hours_outside_timetables).toBe(false);
    });

    it('the timetable of today: the employee’s latest timetable that has started, by filter and sort', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const current = await post(acme, '/hrm/timetable', {
        employee_id: employee,
        start_date: '2025-01-01',
        end_date: '2098-12-31',
        even_week: week(),
      });
      const future = await post(acme, '/hrm/timetable', { employee_id: employee, start_date: '2099-01-01', even_week: week() });
      const rows = await list<Row>(
        acme,
        `/hrm/timetable?q[employee.id]=${encodeURIComponent(employee)}&q[start_date][le]=${today}&q[end_date][ge]=${today}&sort=-start_date&limit=1`,
      );
      expect(rows.map((r) => r.id)).toEqual([current]);
      for (const id of [current, future]) expect((await acme.v2('DELETE', `/hrm/timetable/${id}`)).status).toBe(200);
    });

    it('timetable.list per employee (v3)', async () => {
      const res = await acme.v3('GET', `/timetable.list?employeeId=${encodeURIComponent(employee)}`);
      expect(res.status, res.text).toBe(200);
      const items = (res.body as { items: Row[] }).items;
      expect(items.map((r) => r.id)).toEqual([existing]);
      for (const item of items) validate('Hrm.Timetable', item);
    });
  });
});

describe('hrm/leave, hours/leave and hrm/leavebalance', () => {
  let employee: string;
  beforeAll(async () => {
    employee = await post(acme, '/hrm/employee', { name: 'Lena Leave' });
    // Mondays to Fridays 8 hours, Fridays free in odd weeks
    await post(acme, '/hrm/timetable', {
      employee_id: employee,
      start_date: '2025-01-01',
      has_odd_weeks: true,
      even_week: week(),
      odd_week: week([8, 8, 8, 8, 0, 0, 0]),
    });
    // a contract of 2025 at 80% with 25 days off: 25 × 8 × 0.8 = 160 hours of vacation
    await t.db.query(
      `INSERT INTO contract (id, environment_id, employee_id, start_date, end_date, parttime_percentage, days_off, updated_at)
       VALUES ('contract:lena', $1, $2, '2025-01-01', '2025-12-31', 80, 25, now())`,
      [ids.env, employee],
    );
  });

  const balance = async () => {
    const rows = await list<Row>(acme, `/hrm/leavebalance?q[employee_id]=${encodeURIComponent(employee)}&q[year]=2025`);
    return rows.filter((r) => (r.leavetype as Row).id === ids.vacation);
  };

  it('hrm/contract, hrm/contracttype and hrm/employmenttype read in the reference shape', async () => {
    const k = await v2Get<Row>(acme, '/hrm/contract/contract:lena');
    expect(k).toMatchObject({
      employee: { id: employee, name: 'Lena Leave' },
      start_date: '2025-01-01',
      parttime_percentage: 80,
      days_off: 25,
    });
    for (const c of await list<Row>(acme, '/hrm/contracttype')) conforms('ContractType', c);
    for (const c of await list<Row>(acme, '/hrm/employmenttype')) conforms('EmploymentType', c);
    for (const c of await list<Row>(acme, '/hrm/civilstatus')) conforms('GetCivilStatus', c);
    for (const c of await list<Row>(acme, '/hrm/employeetype')) conforms('EmployeeType', c);
    for (const c of await list<Row>(acme, '/hrm/absencetype')) conforms('GetAbsenceType', c);
    const types = await list<Row>(acme, '/hrm/leavetype');
    for (const c of types) conforms('LeaveType', c);
    expect(types.map((x) => [x.label, x.affects_balance])).toEqual([
      ['Special leave', false],
      ['Time for time', true],
      ['Vacation', true],
    ]);
  });

  it('leave balance per employee and leave type, from contract hours, the timetable, granted and taken leave', async () => {
    expect(await balance()).toMatchObject([{ year: 2025, balance: 160, granted: 160, taken: 0 }]);
    // granted leave: no start date, hours for a year
    await post(acme, '/hrm/leave', { employee_id: employee, leave_type_id: ids.vacation, year: 2025, hours: 16 });
    // taken leave booked as hours: Monday 3 to Friday 7 March 2025 (ISO week 10, even): 5 × 8 hours from the timetable
    const taken = await post(acme, '/hours/leave', {
      employee_id: employee,
      leave_type_id: ids.vacation,
      start_date: '2025-03-03',
      end_date: '2025-03-07',
    });
    expect(await v2Get<Row>(acme, `/hrm/leave/${taken}`)).toMatchObject({ hours: 40, kind: 'taken', year: 2025 });
    // week 11 is odd: Friday 14 March is free, so Monday 10 to Sunday 16 March takes 32 hours
    const odd = await post(acme, '/hours/leave', {
      employee_id: employee,
      leave_type_id: ids.vacation,
      start_date: '2025-03-10',
      end_date: '2025-03-16',
    });
    expect(await v2Get<Row>(acme, `/hrm/leave/${odd}`)).toMatchObject({ hours: 32 });
    const [b] = await balance();
    expect(b).toMatchObject({
      granted: 176,
      taken: 72,
      balance: 104,
      year: 2025,
      employee: { id: employee, name: 'Lena Leave' },
    });
    conforms('LeaveBalance', b);
    // PUT hours/leave changes the same entry
    expect((await acme.v2('PUT', `/hours/leave/${odd}`, { hours: 24 })).status).toBe(200);
    expect((await balance())[0]).toMatchObject({ taken: 64, balance: 112 });
  });

  it('2025-09: hrm/leave has leave_status {id, label}', async () => {
    const res = await acme.v3('POST', '/leave.request', {
      employeeId: employee,
      leaveTypeId: ids.vacation,
      startDate: '2025-05-05',
      endDate: '2025-05-06',
    });
    expect(res.status, res.text).toBe(201);
    validate('Hrm.Leave', res.body);
    const id = (res.body as Row).id;
    const read = await v2Get<Row>(acme, `/hrm/leave/${id}`);
    conforms('GetLeave', read);
    expect(read).toMatchObject({ leave_status: { id: expect.any(String), label: 'Requested' }, hours: 16 });
    // requested leave does not count yet; approved leave does
    const before = (await balance())[0]?.balance as number;
    const approved = await acme.v3('POST', `/leave.approve/${id}`, {});
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: { key: 'approved', label: 'Approved' } });
    expect((await balance())[0]?.balance).toBe(before - 16);
    expect((await v2Get<Row>(acme, `/hrm/leave/${id}`)).leave_status).toMatchObject({ label: 'Approved' });
    expect(await eventTypes(id)).toEqual(['leave.created', 'leave.updated']);
    expectBusinessRule(await acme.v3('POST', `/leave.reject/${id}`, {}), 'Only requested leave');
    // a rejected request never counts
    const other = await acme.v3('POST', '/leave.request', {
      employeeId: employee,
      leaveTypeId: ids.vacation,
      startDate: '2025-06-02',
    });
    const rejected = await acme.v3('POST', `/leave.reject/${(other.body as Row).id}`, {});
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body).toMatchObject({ status: { key: 'rejected' } });
    expect((await balance())[0]?.balance).toBe(before - 16);
    const filtered = await list<Row>(acme, '/hrm/leave?q[leave_status.label]=Rejected');
    expect(filtered.map((r) => r.id)).toEqual([(other.body as Row).id]);
  });

  it('2025-10: hrm/leave also returns entries without a leave status', async () => {
    const all = await list<Row>(acme, `/hrm/leave?q[employee.id]=${encodeURIComponent(employee)}`);
    const statuses = all.map((r) => (r.leave_status as Row | null)?.label ?? null);
    expect(statuses).toContain(null);
    expect(statuses).toContain('Approved');
    for (const r of all) conforms('GetLeave', r);
    const special = await list<Row>(acme, `/hrm/leave?q[leavetype.id]=${encodeURIComponent(ids.special as string)}`);
    expect(special.every((r) => (r.leavetype as Row).id === ids.special)).toBe(true);
    const balances = await list<Row>(
      acme,
      `/hrm/leavebalance?q[employee.id]=${encodeURIComponent(employee)}&q[leavetype.id]=${encodeURIComponent(ids.vacation as string)}`,
    );
    expect(balances.map((b) => [(b.leavetype as Row).label, b.year])).toEqual([['Vacation', 2025]]);
  });

  it('a balance never goes negative without an explicit flag that allows it (400 v2, 422 v3, nothing changes)', async () => {
    const current = (await balance())[0]?.balance as number;
    const tooMuch = {
      employee_id: employee,
      leave_type_id: ids.vacation,
      start_date: '2025-07-01',
      end_date: '2025-07-01',
      hours: current + 8,
    };
    const before = await databaseFingerprint(t.db);
    for (const path of ['/hrm/leave', '/hours/leave']) {
      const res = await acme.v2('POST', path, tooMuch);
      expect(res.status, res.text).toBe(400);
      expect(errorsOf(res)).toContain('negative');
    }
    const v3 = expectProblem(
      await acme.v3('POST', '/leave.request', {
        employeeId: employee,
        leaveTypeId: ids.vacation,
        startDate: '2025-07-01',
        hours: current + 8,
      }),
      422,
    );
    expect(v3.violations?.map((v) => v.propertyPath)).toEqual(['hours']);
    expect(await databaseFingerprint(t.db)).toEqual(before);
    // types that do not affect a balance never refuse
    await post(acme, '/hrm/leave', { employee_id: employee, leave_type_id: ids.special, start_date: '2025-07-02', hours: 500 });
    // with the flag it goes through, and the balance shows it
    const allowed = await post(acme, '/hours/leave', { ...tooMuch, allow_negative: true });
    expect(await v2Get<Row>(acme, `/hrm/leave/${allowed}`)).toMatchObject({ allow_negative: true });
    expect((await balance())[0]?.balance).toBe(-8);
  });

  it('a balance never goes negative: two concurrent bookings of the whole balance, one goes through', async () => {
    const racer = await post(acme, '/hrm/employee', { name: 'Rita Race' });
    await post(acme, '/hrm/leave', { employee_id: racer, leave_type_id: ids.vacation, year: 2026, hours: 8 });
    const book = (date: string) =>
      acme.v2('POST', '/hours/leave', { employee_id: racer, leave_type_id: ids.vacation, start_date: date, hours: 8 });
    const answers = await Promise.all([book('2026-03-02'), book('2026-03-03'), book('2026-03-04')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    const [b] = await list<Row>(acme, `/hrm/leavebalance?q[employee_id]=${encodeURIComponent(racer)}&q[year]=2026`);
    expect(b).toMatchObject({ granted: 8, taken: 8, balance: 0 });
  });

  it('bad leave input answers 400 and changes nothing', async () => {
    const before = await databaseFingerprint(t.db);
    for (const body of [
      { employee_id: 'employee:nope', leave_type_id: ids.vacation, year: 2025, hours: 8 },
      { employee_id: employee, leave_type_id: 'leavetype:nope', year: 2025, hours: 8 },
      { employee_id: employee, leave_type_id: ids.vacation, hours: 8 },
      { employee_id: employee, leave_type_id: ids.vacation, start_date: '2025-03-10', end_date: '2025-03-01' },
      { employee_id: employee, leave_type_id: ids.vacation, year: 2025, hours: -8 },
      { employee_id: employee, leave_type_id: ids.vacation, start_date: 'soon' },
    ]) {
      const res = await acme.v2('POST', '/hrm/leave', body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(400);
    }
    expect((await acme.v2('GET', '/hrm/leavebalance?q[shoe_size]=42')).status).toBe(400);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});

describe('hrm/absence and hours/absence', () => {
  let employee: string;
  beforeAll(async () => {
    employee = await post(acme, '/hrm/employee', { name: 'Abe Sent' });
  });

  it('end_date stays empty while the absence is ongoing, and absence_ongoing says so', async () => {
    const id = await post(acme, '/hrm/absence', {
      employee_id: employee,
      absence_type_id: ids.sickness,
      start_date: '2025-02-03 09:00:00',
    });
    const read = await v2Get<Row>(acme, `/hrm/absence/${id}`);
    conforms('GetAbsence', read);
    expect(read).toMatchObject({ end_date: null, absence_ongoing: true, start_date: '2025-02-03 09:00:00', year: 2025 });
    const listed = await list<Row>(acme, `/hrm/absence?q[employee.id]=${encodeURIComponent(employee)}`);
    expect(listed.find((r) => r.id === id)).toMatchObject({ end_date: null, absence_ongoing: true });
  });

  it('closing an absence sets end_date (absence.close, PUT hrm/absence and PUT hours/absence)', async () => {
    const reported = await acme.v3('POST', '/absence.report', {
      employeeId: employee,
      absenceTypeId: ids.sickness,
      startDate: '2025-04-01',
    });
    expect(reported.status, reported.text).toBe(201);
    validate('Hrm.Absence', reported.body);
    expect(reported.body).toMatchObject({ endDate: null, ongoing: true });
    const id = (reported.body as Row).id;
    const closed = await acme.v3('POST', `/absence.close/${id}`, { endDate: '2025-04-03' });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body).toMatchObject({ endDate: '2025-04-03T00:00:00.000Z', ongoing: false });
    expect(await v2Get<Row>(acme, `/hrm/absence/${id}`)).toMatchObject({
      end_date: '2025-04-03 00:00:00',
      absence_ongoing: false,
    });
    expect(await eventTypes(id)).toEqual(['absence.created', 'absence.updated']);
    expectBusinessRule(await acme.v3('POST', `/absence.close/${id}`, { endDate: '2025-04-04' }), 'closed already');

    const viaHours = await post(acme, '/hours/absence', {
      employee_id: employee,
      absence_type_id: ids.sickness,
      start_date: '2025-05-01',
    });
    expect((await acme.v2('PUT', `/hours/absence/${viaHours}`, { end_date: '2025-05-02' })).status).toBe(200);
    expect(await v2Get<Row>(acme, `/hrm/absence/${viaHours}`)).toMatchObject({
      end_date: '2025-05-02 00:00:00',
      absence_ongoing: false,
    });
    expect((await acme.v2('PUT', `/hrm/absence/${viaHours}`, { end_date: null })).status).toBe(200);
    expect(await v2Get<Row>(acme, `/hrm/absence/${viaHours}`)).toMatchObject({ end_date: null, absence_ongoing: true });
    expect((await acme.v2('DELETE', `/hrm/absence/${viaHours}`)).status).toBe(200);
  });

  it('an absence cannot end before it starts (400 v2, 422 v3, nothing changes)', async () => {
    const ongoing = await post(acme, '/hrm/absence', {
      employee_id: employee,
      absence_type_id: ids.sickness,
      start_date: '2025-09-10',
    });
    const before = await databaseFingerprint(t.db);
    const body = { employee_id: employee, absence_type_id: ids.sickness, start_date: '2025-09-10', end_date: '2025-09-09' };
    for (const [method, p] of [
      ['POST', '/hrm/absence'],
      ['POST', '/hours/absence'],
      ['PUT', `/hrm/absence/${ongoing}`],
      ['PUT', `/hours/absence/${ongoing}`],
    ] as const) {
      const res = await acme.v2(method, p, body);
      expect(res.status, res.text).toBe(400);
      expect(errorsOf(res)).toContain('end_date');
    }
    const p = expectProblem(await acme.v3('POST', `/absence.close/${ongoing}`, { endDate: '2025-09-01' }), 422);
    expect(p.violations?.map((v) => v.propertyPath)).toEqual(['endDate']);
    expectProblem(
      await acme.v3('POST', '/absence.report', {
        employeeId: employee,
        absenceTypeId: ids.sickness,
        startDate: '2025-09-10',
        endDate: '2025-09-01',
      }),
      422,
    );
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});
