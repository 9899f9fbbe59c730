import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from './support/crm.js';
import { bookable, conforms, errorsOf, hoursBody, hoursFingerprint, v2Data, v2Post } from './support/hours.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/** The weekly approval flow of hours (issue 10): submit, approve, reject, resubmit; every transition on hours/approval. */

let t: TestService;
let acme: ApiClient;

type Row = Record<string, unknown> & { id: string };

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('acme');
});
afterAll(() => t?.stop());

async function statuses(): Promise<Record<string, string>> {
  const rows = await v2Data<Row[]>(acme, '/hours/approvalstatus');
  return Object.fromEntries(rows.map((r) => [String(r.label).toLowerCase(), r.id]));
}

describe('approval statuses', () => {
  it('hours/approvalstatus is a read-only list (GetApprovalStatus)', async () => {
    const rows = await v2Data<Row[]>(acme, '/hours/approvalstatus');
    expect(rows.map((r) => r.label)).toEqual(['Open', 'Submitted', 'Approved', 'Rejected']);
    for (const r of rows) conforms('GetApprovalStatus', r);
    expect(await v2Data<Row>(acme, `/hours/approvalstatus/${rows[0]?.id}`)).toEqual(rows[0]);
    const res = await acme.v2('POST', '/hours/approvalstatus', { label: 'Maybe' });
    expect(res.status).toBe(405);
  });
});

describe('approval flow', () => {
  it('submit per employee and week: the week’s hours are submitted and can no longer change', async () => {
    const b = await bookable(acme, 'Submit');
    const monday = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-02' }));
    const friday = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-06' }));
    const nextWeek = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-09' }));
    const res = await acme.v2('POST', '/hours/submit', { employee_id: b.employee, start_date: '2026-03-04' });
    expect(res.status, res.text).toBe(200);
    for (const id of [monday, friday]) expect((await v2Data<Row>(acme, `/hours/hours/${id}`)).status).toBe('submitted');
    expect((await v2Data<Row>(acme, `/hours/hours/${nextWeek}`)).status).toBe('open');
    // a new hour in a submitted week is refused, and an hour cannot move into it
    const before = await hoursFingerprint(t);
    const refused = await acme.v2('POST', '/hours/hours', hoursBody(b, { start_date: '2026-03-03' }));
    expect(refused.status).toBe(400);
    expect(errorsOf(refused)).toContain('week_locked');
    expect((await acme.v2('PUT', `/hours/hours/${nextWeek}`, { start_date: '2026-03-05' })).status).toBe(400);
    expect(await hoursFingerprint(t)).toBe(before);
    const submissions = await v2Data<Row[]>(
      acme,
      `/hours/submission?q[employee_id]=${b.employee}&q[start_date]=2026-03-02&q[end_date]=2026-03-22`,
    );
    expect(submissions).toEqual([
      { employee_id: b.employee, date: '2026-03-02', status: 'submitted' },
      { employee_id: b.employee, date: '2026-03-09', status: 'yet_to_turn_in' },
      { employee_id: b.employee, date: '2026-03-16', status: 'no_hours' },
    ]);
    for (const s of submissions) conforms('SubmissionStatus', s);
  });

  it('approve: approved hours are locked', async () => {
    const b = await bookable(acme, 'Approve');
    const id = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-10' }));
    await v2Post(acme, '/hours/submission', { employee_id: b.employee, start_date: '2026-03-10' });
    const s = await statuses();
    const approval = await v2Post(acme, '/hours/approval', {
      employee_id: b.employee,
      date: '2026-03-11',
      approvalstatus_id: s.approved,
    });
    const h = await v2Data<Row>(acme, `/hours/hours/${id}?select=status,is_editable`);
    expect(h).toMatchObject({ status: 'approved', is_editable: { value: false } });
    const before = await hoursFingerprint(t);
    expect((await acme.v2('PUT', `/hours/hours/${id}`, { duration_in_minutes: 60 })).status).toBe(400);
    expect((await acme.v2('DELETE', `/hours/hours/${id}`)).status).toBe(400);
    expect(await hoursFingerprint(t)).toBe(before);
    const a = await v2Data<Row>(acme, `/hours/approval/${approval}`);
    expect(a).toMatchObject({
      employee: { id: b.employee },
      approvalstatus: { id: s.approved, label: 'Approved' },
      date: '2026-03-09',
    });
    conforms('GetApproval', a, ['status', 'duration_in_minutes']);
  });

  it('2023-04: duration_in_minutes on hours approval', async () => {
    const b = await bookable(acme, 'Duration');
    await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-16', duration_in_minutes: 90 }));
    await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-18', duration_in_minutes: 45 }));
    const res = await acme.v2('POST', '/hours/submission', { employee_id: b.employee, start_date: '2026-03-16' });
    expect(res.status, res.text).toBe(200);
    expect((res.body as Envelope<{ ids: string[] }>).data.ids).toHaveLength(1);
    const rows = await v2Data<Row[]>(acme, `/hours/approval?q[employee.id]=${b.employee}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ duration_in_minutes: 135, status: 'submitted' });
  });

  it('reject: a rejected week can be edited and submitted again; every transition is visible through hours/approval', async () => {
    const b = await bookable(acme, 'Reject');
    const id = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-03-23' }));
    const s = await statuses();
    await v2Post(acme, '/hours/submit', { employee_id: b.employee, start_date: '2026-03-23' });
    await v2Post(acme, '/hours/approval', { employee_id: b.employee, date: '2026-03-23', approvalstatus_id: s.rejected });
    expect((await v2Data<Row>(acme, `/hours/hours/${id}`)).status).toBe('rejected');
    expect((await acme.v2('PUT', `/hours/hours/${id}`, { duration_in_minutes: 60 })).status).toBe(200);
    expect((await v2Data<Row>(acme, `/hours/hours/${id}`)).status).toBe('open');
    await v2Post(acme, '/hours/submit', { employee_id: b.employee, start_date: '2026-03-23' });
    const last = await v2Post(acme, '/hours/approval', {
      employee_id: b.employee,
      date: '2026-03-23',
      approvalstatus_id: s.approved,
    });
    const history = await v2Data<Row[]>(acme, `/hours/approval?q[employee.id]=${b.employee}&sort=created_at`);
    expect(history.map((h) => h.status)).toEqual(['submitted', 'rejected', 'submitted', 'approved']);
    // PUT hours/approval/{id} changes the week's state anew; DELETE withdraws the decision (the week reopens)
    expect((await acme.v2('PUT', `/hours/approval/${last}`, { approvalstatus_id: s.open })).status).toBe(200);
    expect((await v2Data<Row>(acme, `/hours/hours/${id}`)).status).toBe('open');
    await v2Post(acme, '/hours/submit', { employee_id: b.employee, start_date: '2026-03-23' });
    const approved = await v2Post(acme, '/hours/approval', {
      employee_id: b.employee,
      date: '2026-03-23',
      approvalstatus_id: s.approved,
    });
    expect((await acme.v2('DELETE', `/hours/approval/${approved}`)).status).toBe(200);
    expect((await v2Data<Row>(acme, `/hours/hours/${id}`)).status).toBe('open');
    const all = await v2Data<Row[]>(acme, `/hours/approval?q[employee.id]=${b.employee}&metadata=count`);
    expect(all.map((h) => h.status)).toEqual([
      'submitted',
      'rejected',
      'submitted',
      'approved',
      'open',
      'submitted',
      'approved',
      'open',
    ]);
  });

  it('a transition a week cannot make is refused and changes nothing', async () => {
    const b = await bookable(acme, 'Invalid');
    await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-04-06' }));
    const s = await statuses();
    const before = await hoursFingerprint(t);
    const res = await acme.v2('POST', '/hours/approval', {
      employee_id: b.employee,
      date: '2026-04-06',
      approvalstatus_id: s.approved,
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toContain('invalid_transition');
    const missing = await acme.v2('POST', '/hours/approval', {
      employee_id: b.employee,
      date: '2026-02-30',
      approvalstatus_id: s.approved,
    });
    expect(missing.status).toBe(400);
    expect((missing.body as Envelope).errors?.join(' ')).toContain('date');
    expect(await hoursFingerprint(t)).toBe(before);
  });
});

describe('the week’s mileage follows its approval', () => {
  it('approving a week approves its mileage too, which is then locked', async () => {
    const b = await bookable(acme, 'Mileage week');
    await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-04-13' }));
    const m = await v2Post(acme, '/mileage/mileage', {
      employee_id: b.employee,
      project_id: b.project,
      mileage: 12,
      start_date: '2026-04-14',
    });
    const s = await statuses();
    await v2Post(acme, '/hours/submit', { employee_id: b.employee, start_date: '2026-04-13' });
    await v2Post(acme, '/hours/approval', { employee_id: b.employee, date: '2026-04-13', approvalstatus_id: s.approved });
    expect((await v2Data<Row>(acme, `/mileage/mileage/${m}`)).approvalstatus).toMatchObject({ label: 'Approved' });
    const res = await acme.v2('PUT', `/mileage/mileage/${m}`, { mileage: 20 });
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toContain('mileage_locked');
  });
});

describe('rights', () => {
  it('reading hours needs the hours right, booking them its write level', async () => {
    const b = await bookable(acme, 'Rights');
    const reader = await t.user('acme', 'reader@acme.test', { hours: 'read', projects: 'read', hrm: 'read' });
    const nobody = await t.user('acme', 'nobody@acme.test', { crm: 'write' });
    expect((await reader.v2('GET', '/hours/hours')).status).toBe(200);
    expect((await nobody.v2('GET', '/hours/hours')).status).toBe(403);
    const before = await hoursFingerprint(t);
    expect((await reader.v2('POST', '/hours/hours', hoursBody(b))).status).toBe(403);
    expect((await reader.v2('POST', '/hours/submit', { employee_id: b.employee, start_date: '2026-03-02' })).status).toBe(403);
    expect(await hoursFingerprint(t)).toBe(before);
  });
});
