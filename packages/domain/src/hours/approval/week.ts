import { recordChange, type SqlWriteContext } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { ApprovalState } from '../hours/hours.entity.js';
import { hours } from '../hours/hours.entity.js';
import { expense } from '../../costs/expense/expense.entity.js';
import { mileage } from '../../mileage/mileage.entity.js';
import { approvalError } from './approval-errors.js';

/** The Monday of the ISO week of a day (UTC dates). */
export function weekStartOf(d: Date): Date {
  const monday = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return monday;
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The state of an employee's week: its latest transition, open when it has none. */
export async function weekStateOf(w: SqlWriteContext, employeeId: string, weekStart: Date): Promise<ApprovalState> {
  const [last] = await w.sql.read<{ status: ApprovalState }>(
    `SELECT status FROM hour_approval WHERE environment_id = $1 AND employee_id = $2 AND week_start = $3::date
      ORDER BY created_at DESC, id DESC LIMIT 1`,
    [employeeId, iso(weekStart)],
  );
  return last?.status ?? 'open';
}

/**
 * Takes an employee's week for the rest of the transaction. Every write the week's state
 * governs takes it before reading that state: a transition, and a booking of hours in the week.
 * So a booking and a submission of its week never interleave: the booking either commits first
 * (and the submission then moves its hours too) or reads the submitted week and is refused.
 */
export async function lockWeek(w: SqlWriteContext, employeeId: string, weekStart: Date): Promise<void> {
  await w.sql.read(`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended($1 || ':week:' || $2 || ':' || $3, 0))`, [
    employeeId,
    iso(weekStart),
  ]);
}

/** Which transitions a week may make: submit an open or rejected week, approve or reject a submitted one, reopen any other. */
const ALLOWED: Record<ApprovalState, ApprovalState[]> = {
  submitted: ['open', 'rejected'],
  approved: ['submitted'],
  rejected: ['submitted'],
  open: ['submitted', 'approved', 'rejected'],
};

/**
 * Moves an employee's ISO week to a new state: records the transition (hours/approval)
 * and moves the week's hours with it, each change an update event of the hours.
 * Answers the transition's id.
 */
export async function transitionWeek(w: SqlWriteContext, employeeId: string, day: Date, to: ApprovalState): Promise<string> {
  const weekStart = weekStartOf(day);
  // one transition of a week at a time, and none while a booking in the week is being written
  await lockWeek(w, employeeId, weekStart);
  const from = await weekStateOf(w, employeeId, weekStart);
  if (!ALLOWED[to].includes(from)) {
    throw approvalError('invalid_transition', `The week of ${iso(weekStart)} is ${from}; it cannot become ${to}.`);
  }
  const weekEnd = new Date(weekStart);
  weekEnd.setUTCDate(weekEnd.getUTCDate() + 6);
  if (to === 'open') {
    // the week's hours read locked: an invoice draft that claims them (an update of these rows, which
    // takes no week lock) either committed before and is seen here, or waits for this transition
    const rows = await w.sql.read<{ invoiced: boolean }>(
      `SELECT invoice_id IS NOT NULL AS invoiced FROM hour_registration WHERE environment_id = $1 AND employee_id = $2
          AND start_date BETWEEN $3::date AND $4::date FOR UPDATE`,
      [employeeId, iso(weekStart), iso(weekEnd)],
    );
    if (rows.some((r) => r.invoiced))
      throw approvalError('week_invoiced', `Hours of the week of ${iso(weekStart)} are invoiced; it cannot be reopened.`);
  }
  const id = newEntityId('approval');
  // stamped when it is written, under the week's lock (not when the transaction began): the week's
  // latest transition by created_at is then the one written last, as Prisma's client-side stamp was
  await w.sql.queue(
    `INSERT INTO hour_approval (environment_id, id, employee_id, week_start, status, actor_id, created_at, updated_at)
     SELECT $1, $2, $3, $4::date, $5, $6, t.at, t.at FROM (SELECT clock_timestamp() AS at) t`,
    [id, employeeId, iso(weekStart), to, w.ctx.principal.userId],
  );
  const changed = await w.sql.read<{ id: string }>(
    `UPDATE hour_registration SET approval_status = $5, updated_at = now()
      WHERE environment_id = $1 AND employee_id = $2 AND start_date BETWEEN $3::date AND $4::date
        AND invoice_id IS NULL AND approval_status <> $5
     RETURNING id`,
    [employeeId, iso(weekStart), iso(weekEnd), to],
  );
  for (const h of changed) await recordChange(w, hours, h.id, 'updated', false);
  // the week's mileage and expenses follow the same approval
  for (const [table, entity] of [
    ['mileage', mileage],
    ['expense', expense],
  ] as const) {
    const moved = await w.sql.read<{ id: string }>(
      `UPDATE ${table} SET approval_status = $5, updated_at = now()
        WHERE environment_id = $1 AND employee_id = $2 AND start_date BETWEEN $3::date AND $4::date
          AND invoice_id IS NULL AND approval_status <> $5
       RETURNING id`,
      [employeeId, iso(weekStart), iso(weekEnd), to],
    );
    for (const m of moved) await recordChange(w, entity, m.id, 'updated', false);
  }
  return id;
}
