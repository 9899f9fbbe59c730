import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookable, hoursBody, v2Post } from './support/hours.js';
import { referenceData } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/**
 * Every state change is atomic with the writes it governs (issue 28 §4): writers and the
 * transition sent at the same moment, many rounds, and afterwards no row the final state forbids.
 */

let t: TestService;
let acme: ApiClient;

beforeAll(async () => {
  t = await startTestService();
  acme = await t.environment('race');
});
afterAll(() => t?.stop());

/** the Monday of each round's week: March to June 2026, inside the bookable assignment */
const mondays = ['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23', '2026-03-30', '2026-04-06'];

describe('the week’s submission against bookings in the week', () => {
  it('hours booked at the moment the week is submitted are either in the submitted week (moved with it) or refused: none stays open', async () => {
    const b = await bookable(acme, 'Race');
    for (const monday of mondays) {
      const bookings = Array.from({ length: 9 }, (_, i) =>
        acme.v2('POST', '/hours/hours', hoursBody(b, { start_date: monday, duration_in_minutes: 30 + i })),
      );
      const submit = acme.v2('POST', '/hours/submit', { employee_id: b.employee, start_date: monday });
      const [submitted, ...booked] = await Promise.all([submit, ...bookings]);
      expect(submitted.status, submitted.text).toBe(200);
      for (const res of booked) {
        // refused with the week's code, or taken before the submission
        if (res.status !== 200) expect(res.text).toContain('[week_locked]');
      }
      const rows = await t.db.query<{ status: string; n: string }>(
        `SELECT approval_status AS status, count(*) AS n FROM hour_registration
          WHERE employee_id = $1 AND start_date BETWEEN $2::date AND $2::date + 6 GROUP BY 1`,
        [b.employee, monday],
      );
      expect(
        rows.filter((r) => r.status !== 'submitted'),
        monday,
      ).toEqual([]);
      const taken = booked.filter((r) => r.status === 200).length;
      expect(Number(rows.find((r) => r.status === 'submitted')?.n ?? 0)).toBe(taken);
    }
  });

  it('hours edited at the moment the week is submitted: an edit is either before the submission or refused as locked', async () => {
    const b = await bookable(acme, 'Edit race');
    for (const monday of mondays) {
      const ids = await Promise.all(
        Array.from({ length: 5 }, () => v2Post(acme, '/hours/hours', hoursBody(b, { start_date: monday }))),
      );
      const edits = ids.map((id) => acme.v2('PUT', `/hours/hours/${id}`, { duration_in_minutes: 45 }));
      const deletes = ids.slice(0, 2).map((id) => acme.v2('DELETE', `/hours/hours/${id}`));
      const submit = acme.v2('POST', '/hours/submit', { employee_id: b.employee, start_date: monday });
      const [submitted, ...changes] = await Promise.all([submit, ...edits, ...deletes]);
      expect(submitted.status, submitted.text).toBe(200);
      for (const res of changes) if (res.status !== 200) expect(res.text).toContain('[hours_locked]');
      const rows = await t.db.query<{ status: string }>(
        `SELECT approval_status AS status FROM hour_registration
          WHERE employee_id = $1 AND start_date BETWEEN $2::date AND $2::date + 6`,
        [b.employee, monday],
      );
      expect(
        rows.filter((r) => r.status !== 'submitted'),
        monday,
      ).toEqual([]);
      // every change the service answered 200 was written before the submission: no hours event of
      // the week comes after the submission's own (events are numbered as they are written)
      // each row as the submission moved it (its first event that says submitted) is the row as it
      // is now: no change was written after the submission
      const moved = await t.db.query<{ id: string; atSubmission: number; now: number }>(
        `SELECT h.id, (SELECT (e.data->>'durationMinutes')::int FROM event e
                         WHERE e.entity_id = h.id AND e.data->>'approvalStatus' = 'submitted' ORDER BY e.seq LIMIT 1) AS "atSubmission",
                h.duration_minutes AS now
           FROM hour_registration h WHERE h.id = ANY($1)`,
        [ids],
      );
      expect(moved.length).toBeGreaterThan(0);
      for (const row of moved) expect(row.atSubmission, `${monday} ${row.id}`).toBe(row.now);
    }
  });
});

describe('a week is taken before its hours: an edit and a submission never deadlock', () => {
  it('an edit waiting for the week its hours are in is refused as locked once the week is submitted, and the submission is never a deadlock victim', async () => {
    const b = await bookable(acme, 'Lock order');
    const monday = '2026-04-13';
    const hour = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: monday }));
    const [owner] = await t.db.query<{ env: string }>('SELECT environment_id AS env FROM hour_registration WHERE id = $1', [
      hour,
    ]);
    // the submission's first steps, held open: the week's lock (as lockWeek takes it)…
    const submission = new pg.Client({ connectionString: t.db.url });
    await submission.connect();
    try {
      await submission.query('BEGIN');
      await submission.query(`SELECT pg_advisory_xact_lock(hashtextextended($1 || ':week:' || $2 || ':' || $3, 0))`, [
        owner?.env,
        b.employee,
        monday,
      ]);
      const edit = acme.v2('PUT', `/hours/hours/${hour}`, { duration_in_minutes: 45 });
      // …until the edit waits for that week
      const waiting = async () =>
        Number(
          (
            await t.db.query<{ n: string }>(
              `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
            )
          )[0]?.n,
        );
      for (let i = 0; i < 200 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await waiting()).toBe(1);
      // …then the week's hours move with it: the edit holds no lock on them (a deadlock would abort one side)
      await submission.query(`UPDATE hour_registration SET approval_status = 'submitted' WHERE id = $1`, [hour]);
      await submission.query('COMMIT');
      const res = await edit;
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain('[hours_locked]');
    } finally {
      await submission.end();
    }
    const [row] = await t.db.query<{ minutes: number; status: string }>(
      'SELECT duration_minutes AS minutes, approval_status AS status FROM hour_registration WHERE id = $1',
      [hour],
    );
    expect(row?.status).toBe('submitted');
    expect(row?.minutes).not.toBe(45);
  });
});

describe('a project’s closing against bookings on its services', () => {
  it('hours booked at the moment the project is closed are either written before the closing or refused: none after it', async () => {
    const ref = await referenceData(acme);
    const closed = ref.statuses.find((s) => s.is_closed)?.id;
    expect(closed).toBeTruthy();
    for (let round = 0; round < 5; round += 1) {
      const b = await bookable(acme, `Closing ${round}`);
      const bookings = Array.from({ length: 9 }, (_, i) =>
        acme.v2('POST', '/hours/hours', hoursBody(b, { start_date: '2026-03-02', duration_in_minutes: 30 + i })),
      );
      const closing = acme.v2('PUT', `/projects/project/${b.project}`, { project_status_id: closed });
      const [closedRes, ...booked] = await Promise.all([closing, ...bookings]);
      expect(closedRes.status, closedRes.text).toBe(200);
      for (const res of booked) if (res.status !== 200) expect(res.text).toContain('[project_closed]');
      // events are numbered as they are written: no booking's event after the closing's
      const [last] = await t.db.query<{ seq: string }>('SELECT max(seq)::text AS seq FROM event WHERE entity_id = $1', [
        b.project,
      ]);
      const after = await t.db.query<{ n: string }>(
        `SELECT count(*) AS n FROM event e JOIN hour_registration h ON h.id = e.entity_id
          WHERE h.project_id = $1 AND e.seq > $2::bigint`,
        [b.project, last?.seq],
      );
      expect(Number(after[0]?.n), `round ${round}`).toBe(0);
    }
  });
});

describe('an invoice draft claiming a week’s hours against the week’s reopening', () => {
  it('a week whose hours a draft claims while it is reopened is refused as invoiced, never open with invoiced hours', async () => {
    const b = await bookable(acme, 'Claim race');
    const hour = await v2Post(acme, '/hours/hours', hoursBody(b, { start_date: '2026-05-04' }));
    await v2Post(acme, '/hours/submit', { employee_id: b.employee, start_date: '2026-05-04' });
    const statuses = (await acme.v2('GET', '/hours/approvalstatus')).body as { data: { id: string; label: string }[] };
    const approvedStatus = statuses.data.find((s) => s.label === 'Approved')?.id;
    const approval = await v2Post(acme, '/hours/approval', {
      employee_id: b.employee,
      date: '2026-05-04',
      approvalstatus_id: approvedStatus,
    });
    const debtor = await v2Post(acme, '/crm/organization', { name: 'Claim Debtor BV' });
    const invoice = await v2Post(acme, '/invoices/invoice', {
      organization_id: debtor,
      invoice_lines: [{ description: 'Hours', amount: 1, price: 100 }],
    });
    // the draft's claim (as hours.source.ts does it: an update of the approved rows), held open
    const claim = new pg.Client({ connectionString: t.db.url });
    await claim.connect();
    try {
      await claim.query('BEGIN');
      await claim.query('UPDATE hour_registration SET invoice_id = $1 WHERE id = $2', [invoice, hour]);
      const reopening = acme.v2('DELETE', `/hours/approval/${approval}`);
      await new Promise((r) => setTimeout(r, 500));
      await claim.query('COMMIT');
      const res = await reopening;
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain('[week_invoiced]');
    } finally {
      await claim.end();
    }
    const [row] = await t.db.query<{ status: string; invoice: string | null }>(
      'SELECT approval_status AS status, invoice_id AS invoice FROM hour_registration WHERE id = $1',
      [hour],
    );
    expect(row).toEqual({ status: 'approved', invoice });
    const [week] = await t.db.query<{ status: string }>(
      'SELECT status FROM hour_approval WHERE employee_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1',
      [b.employee],
    );
    expect(week?.status).toBe('approved');
  });
});
