import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookable, type Bookable, conforms, hoursFingerprint, v2Data, v2Post } from './support/hours.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/** hours/timesheetrow (issue 10): the rows of an employee's timesheet. */

let t: TestService;
let acme: ApiClient;
let b: Bookable;

type Row = Record<string, unknown> & { id: string };

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
  b = await bookable(acme, 'Sheet');
});
afterAll(() => t?.stop());

const week = (start: string, end: string, extra: Record<string, unknown> = {}) => ({
  employee_id: b.employee,
  project_service_id: b.service,
  itemtype_id: b.hourType,
  type: 'hours',
  start_date: start,
  end_date: end,
  ...extra,
});

describe('hours/timesheetrow', () => {
  it('POST and GET a period’s rows (GetTimesheetRow), ordered by PUT order, removed by DELETE', async () => {
    const first = await v2Post(acme, '/hours/timesheetrow', week('2026-03-02', '2026-03-08'));
    const second = await v2Post(acme, '/hours/timesheetrow', week('2026-03-02', '2026-03-08', { itemtype_id: b.unbillableType }));
    const q = `q[employee_id]=${b.employee}&q[start_date]=2026-03-02&q[end_date]=2026-03-08`;
    const rows = await v2Data<Row[]>(acme, `/hours/timesheetrow?${q}`);
    expect(rows.map((r) => r.id)).toEqual([first, second]);
    for (const r of rows) conforms('GetTimesheetRow', r);
    expect(rows[0]).toMatchObject({
      order: 0,
      employee_id: b.employee,
      project_id: b.project,
      itemtype: { id: b.hourType },
      // 2025-07: the service's period on hours/timesheetrow is its registration timeframe
      project_service: { id: b.service, start_date: '2026-01-01', until_date: '2026-12-31' },
    });
    const ordered = await acme.v2('PUT', '/hours/timesheetrow/order', [second, first]);
    expect(ordered.status, ordered.text).toBe(200);
    expect((await v2Data<Row[]>(acme, `/hours/timesheetrow?${q}`)).map((r) => r.id)).toEqual([second, first]);
    expect((await acme.v2('DELETE', `/hours/timesheetrow/${first}`)).status).toBe(200);
    expect((await v2Data<Row[]>(acme, `/hours/timesheetrow?${q}`)).map((r) => r.id)).toEqual([second]);
    expect((await acme.v2('DELETE', `/hours/timesheetrow/${first}`)).status).toBe(404);
  });

  it('GET mostrecent: the latest period before a day with rows of the employee (DateTimeRange)', async () => {
    await v2Post(acme, '/hours/timesheetrow', week('2026-04-06', '2026-04-12'));
    const range = await v2Data<Row>(
      acme,
      `/hours/timesheetrow/mostrecent?q[employee_id]=${b.employee}&q[before_date]=2026-04-20&q[type]=hours`,
    );
    expect(range).toEqual({ start_date: '2026-04-06', end_date: '2026-04-12' });
    conforms('DateTimeRange', range);
  });

  it('bad input: an end before its start, an item type the service does not carry, a day a month does not have', async () => {
    const before = await hoursFingerprint(t);
    for (const body of [
      week('2026-05-10', '2026-05-04'),
      week('2026-05-04', '2026-05-10', { itemtype_id: b.otherType }),
      week('2026-02-30', '2026-03-01'),
    ]) {
      const res = await acme.v2('POST', '/hours/timesheetrow', body);
      expect(res.status, res.text).toBe(400);
    }
    expect((await acme.v2('PUT', '/hours/timesheetrow/order', ['timesheetrow:missing'])).status).toBe(404);
    expect(await hoursFingerprint(t)).toBe(before);
  });
});
