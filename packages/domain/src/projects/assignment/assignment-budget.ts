import { z } from 'zod';
import type { UserContext } from '../../trpc.js';
import { dateInput } from '../../shared/numbers.js';

/** Which budgets to read: a week (any day of it; this week when absent), an employee, an assignment; paged. */
export const assignmentBudgetInput = z.strictObject({
  rangeStart: dateInput.optional(),
  employeeId: z.string().min(1).max(255).optional(),
  assignmentId: z.string().min(1).max(255).optional(),
  offset: z.number().int().min(0).max(1_000_000).default(0),
  limit: z.number().int().min(1).max(100).default(100),
});
export type AssignmentBudgetInput = z.input<typeof assignmentBudgetInput>;

export const assignmentBudgetRow = z.object({
  assignmentId: z.string(),
  /** the week read: Monday to Sunday */
  rangeStart: z.string(),
  rangeEnd: z.string(),
  /** the assignment's own period */
  budgetRangeStart: z.string().nullable(),
  budgetRangeEnd: z.string().nullable(),
  /** per_week: the hours planned per week; total: over the whole period */
  hoursType: z.enum(['per_week', 'total']),
  plannedAmount: z.number().nullable(),
  /** hours booked on the assignment's service and hour type by its employees: in the week (per_week) or the period (total) */
  spentAmount: z.number(),
});
export type AssignmentBudget = z.infer<typeof assignmentBudgetRow>;

/**
 * The budget of the assignments that run in a week, planned against spent, in one
 * statement per page: the hours are summed in SQL on the hours' employee/date index,
 * never loaded. With an employee, only that employee's hours count.
 */
export async function readAssignmentBudgets(
  ctx: UserContext,
  input: z.output<typeof assignmentBudgetInput>,
): Promise<{ items: AssignmentBudget[]; count: number }> {
  const params: unknown[] = [input.rangeStart ?? ctx.clock.now().toISOString().slice(0, 10)];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length + 1}`;
  };
  const where = [
    'a.environment_id = $1',
    '(a.start_date IS NULL OR a.start_date <= r.s + 6)',
    '(a.end_date IS NULL OR a.end_date >= r.s)',
  ];
  if (input.assignmentId) where.push(`a.id = ${param(input.assignmentId)}`);
  const employee = input.employeeId ? param(input.employeeId) : null;
  if (employee) {
    where.push(`EXISTS (SELECT 1 FROM assignment_employee ae WHERE ae.assignment_id = a.id AND ae.employee_id = ${employee})`);
  }
  const byWhom = employee
    ? `h.employee_id = ${employee}`
    : 'h.employee_id IN (SELECT ae.employee_id FROM assignment_employee ae WHERE ae.assignment_id = a.id)';
  const limit = param(input.limit);
  const offset = param(input.offset);
  const rows = await ctx.sql.read<{
    assignment_id: string;
    range_start: string;
    range_end: string;
    budget_range_start: string | null;
    budget_range_end: string | null;
    hours_type: 'per_week' | 'total';
    planned: number | null;
    spent: number;
    total: number;
  }>(
    `WITH r AS (SELECT date_trunc('week', $2::date)::date AS s)
     SELECT a.id AS assignment_id, r.s::text AS range_start, (r.s + 6)::text AS range_end,
            a.start_date::text AS budget_range_start, a.end_date::text AS budget_range_end,
            a.hours_type, a.hours::float8 AS planned,
            COALESCE((SELECT round(sum(h.duration_minutes) / 60.0, 2)
                        FROM hour_registration h JOIN project_service_hour_type l ON l.id = a.project_hour_type_id
                       WHERE h.environment_id = a.environment_id AND h.project_service_id = l.project_service_id
                         AND h.hour_type_id = l.hour_type_id AND ${byWhom}
                         AND CASE WHEN a.hours_type = 'per_week' THEN h.start_date BETWEEN r.s AND r.s + 6
                                  ELSE (a.start_date IS NULL OR h.start_date >= a.start_date)
                                   AND (a.end_date IS NULL OR h.start_date <= a.end_date) END), 0)::float8 AS spent,
            count(*) OVER ()::int AS total
       FROM assignment a CROSS JOIN r
      WHERE ${where.join(' AND ')}
      ORDER BY a.start_date NULLS FIRST, a.id
      LIMIT ${limit} OFFSET ${offset}`,
    params,
  );
  return {
    items: rows.map((r) => ({
      assignmentId: r.assignment_id,
      rangeStart: r.range_start,
      rangeEnd: r.range_end,
      budgetRangeStart: r.budget_range_start,
      budgetRangeEnd: r.budget_range_end,
      hoursType: r.hours_type,
      plannedAmount: r.planned,
      spentAmount: r.spent,
    })),
    count: rows[0]?.total ?? 0,
  };
}
