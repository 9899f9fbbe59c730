import { assertReferences, getEntity, inSqlWrite, recordChange, type SqlWriteContext } from '../../shared/entity/index.js';
import { employee } from '../../hrm/employee/employee.entity.js';
import { NotFoundError, ValidationError } from '../../shared/errors.js';
import type { UserContext } from '../../trpc.js';
import type { ApprovalState } from '../hours/hours.entity.js';
import { approval, approvalStatus } from './approval.entity.js';
import type { ApprovalInput, ApprovalUpdateInput, PeriodInput, SubmissionQuery, WeekInput } from './approval.schema.js';
import { transitionWeek, weekStartOf } from './week.js';

const iso = (d: Date) => d.toISOString().slice(0, 10);

async function stateOf(w: SqlWriteContext, input: { approvalStatusId?: string | undefined; status?: ApprovalState | undefined }) {
  if (input.status) return input.status;
  if (!input.approvalStatusId) {
    throw new ValidationError([{ path: 'approvalStatusId', message: 'This value is required.', code: 'required' }]);
  }
  const [row] = await w.sql.read<{ key: string }>('SELECT key FROM approval_status WHERE environment_id = $1 AND id = $2', [
    input.approvalStatusId,
  ]);
  if (!row) {
    throw new ValidationError([
      {
        path: 'approvalStatusId',
        message: `no such record: ${input.approvalStatusId} (an approvalstatus of this environment)`,
        code: 'not_found',
      },
    ]);
  }
  return row.key as ApprovalState;
}

async function recordTransition(w: SqlWriteContext, employeeId: string, date: Date, to: ApprovalState): Promise<string> {
  await assertReferences(w.sql, [{ path: 'employeeId', target: employee, id: employeeId }]);
  const id = await transitionWeek(w, employeeId, date, to);
  await recordChange(w, approval, id, 'created', false);
  return id;
}

/** Submits an employee's week for approval. */
export function submitWeek(ctx: UserContext, input: WeekInput) {
  return inSqlWrite(ctx, async (w) => ({ id: await recordTransition(w, input.employeeId, input.date, 'submitted') }));
}

/** Submits every week of a period (hours/submit, hours/submission): answers one transition per week. */
export function submitPeriod(ctx: UserContext, input: PeriodInput) {
  return inSqlWrite(ctx, async (w) => {
    const ids: string[] = [];
    const end = input.endDate ?? input.startDate;
    if (end < input.startDate) {
      throw new ValidationError([{ path: 'endDate', message: 'The end lies before the start.', code: 'invalid_period' }]);
    }
    for (let d = weekStartOf(input.startDate); d <= end; d = new Date(d.getTime() + 7 * 86_400_000)) {
      if (ids.length > 60)
        throw new ValidationError([{ path: 'endDate', message: 'At most 60 weeks at once.', code: 'too_big' }]);
      ids.push(await recordTransition(w, input.employeeId, d, 'submitted'));
    }
    return { ids };
  });
}

/** Approves or rejects (or reopens) a week: a new transition. */
export function decideWeek(ctx: UserContext, input: ApprovalInput) {
  return inSqlWrite(ctx, async (w) => {
    // the references first, so that every missing one is reported together
    await assertReferences(w.sql, [
      { path: 'employeeId', target: employee, id: input.employeeId },
      ...(input.approvalStatusId ? [{ path: 'approvalStatusId', target: approvalStatus, id: input.approvalStatusId }] : []),
    ]);
    return { id: await recordTransition(w, input.employeeId, input.date, await stateOf(w, input)) };
  });
}

export function approveWeek(ctx: UserContext, input: WeekInput) {
  return decideWeek(ctx, { ...input, status: 'approved' });
}

export function rejectWeek(ctx: UserContext, input: WeekInput) {
  return decideWeek(ctx, { ...input, status: 'rejected' });
}

/** A new state for the week of an existing transition (PUT hours/approval/{id}); the history keeps both. */
export async function changeApproval(ctx: UserContext, id: string, input: ApprovalUpdateInput) {
  const before = await getEntity(ctx, approval, id);
  return inSqlWrite(ctx, async (w) => {
    const to = await stateOf(w, input);
    return { id: await recordTransition(w, before.employee?.id as string, new Date(`${before.weekStart}T00:00:00Z`), to) };
  });
}

/** Withdraws the decision on a week (DELETE hours/approval/{id}): the week is reopened, recorded as a transition. */
export async function withdrawApproval(ctx: UserContext, id: string) {
  const before = await getEntity(ctx, approval, id);
  if (!before.employee) throw new NotFoundError('approval', id);
  const employeeId = before.employee.id;
  return inSqlWrite(ctx, async (w) => {
    await recordTransition(w, employeeId, new Date(`${before.weekStart}T00:00:00Z`), 'open');
    return { id };
  });
}

/** Per employee and week of the period: submitted (or decided), yet to turn in (hours not submitted) or no hours. */
export async function submissionStatuses(ctx: UserContext, q: SubmissionQuery) {
  if (q.endDate < q.startDate) {
    throw new ValidationError([{ path: 'endDate', message: 'The end lies before the start.', code: 'invalid_period' }]);
  }
  if (q.endDate.getTime() - q.startDate.getTime() > 370 * 86_400_000) {
    throw new ValidationError([{ path: 'endDate', message: 'At most a year at once.', code: 'too_big' }]);
  }
  const rows = await ctx.sql.read<{ employee_id: string; week: string; state: string | null; minutes: number }>(
    `WITH weeks AS (
       SELECT generate_series(date_trunc('week', $2::date), $3::date, interval '7 days')::date AS week
     ), people AS (
       SELECT id FROM employee WHERE environment_id = $1 AND ($4::text IS NULL OR id = $4)
     )
     SELECT p.id AS employee_id, to_char(w.week, 'YYYY-MM-DD') AS week,
            (SELECT a.status FROM hour_approval a WHERE a.environment_id = $1 AND a.employee_id = p.id AND a.week_start = w.week
              ORDER BY a.created_at DESC, a.id DESC LIMIT 1) AS state,
            (SELECT COALESCE(SUM(h.duration_minutes), 0)::int FROM hour_registration h
              WHERE h.environment_id = $1 AND h.employee_id = p.id AND h.start_date BETWEEN w.week AND w.week + 6) AS minutes
       FROM people p CROSS JOIN weeks w
      ORDER BY p.id, w.week`,
    [iso(q.startDate), iso(q.endDate), q.employeeId ?? null],
  );
  return rows.map((r) => ({
    employeeId: r.employee_id,
    date: r.week,
    status:
      r.state === 'submitted' || r.state === 'approved'
        ? ('submitted' as const)
        : r.minutes > 0
          ? ('yet_to_turn_in' as const)
          : ('no_hours' as const),
  }));
}
