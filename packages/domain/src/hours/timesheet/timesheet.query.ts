import { type ListQuery, parseDateTime } from '@bo/db';
import { z } from 'zod';
import type { ListResult } from '../../shared/entity/index.js';
import { BadRequestError } from '../../shared/errors.js';
import { assertOwnOrder, comparisonsOf, valuesOf } from '../../shared/list-comparisons.js';
import type { UserContext } from '../../trpc.js';

/** One row of an employee's timesheet: a week's minutes on one service and hour type, per day. */
export const timesheetRowSchema = z.object({
  employeeId: z.string(),
  weekStart: z.string(),
  projectId: z.string(),
  projectServiceId: z.string(),
  hourTypeId: z.string(),
  /** minutes per day of the week, Monday first */
  days: z.array(z.object({ date: z.string(), minutes: z.number().int() })),
  totalMinutes: z.number().int(),
  /** the week's approval state: open, submitted, approved or rejected */
  status: z.string(),
});
export type TimesheetRow = z.infer<typeof timesheetRowSchema>;

/** The hours a timesheet sums, in paths of the hours: whose, on which project, from and until which day. */
interface TimesheetFilter {
  employeeIds: string[] | null;
  projectIds: string[] | null;
  from: string | null;
  until: string | null;
}

/** Several comparisons on one path all hold: the values both admit. */
function both(known: string[] | null, values: string[]): string[] {
  return known === null ? [...new Set(values)] : known.filter((v) => values.includes(v));
}

function day(value: string): string {
  if (!parseDateTime(value)) throw new BadRequestError(`startDate: "${value}" is not a date (YYYY-MM-DD)`, 'startDate');
  return value.trim().slice(0, 10);
}

/** A list query's `where` over the hours' paths: employeeId and projectId (eq, in), startDate (eq, ge, le). */
function timesheetFilter(query: ListQuery): TimesheetFilter {
  const f: TimesheetFilter = { employeeIds: null, projectIds: null, from: null, until: null };
  const comparisons = comparisonsOf('timesheet rows', query.where, {
    employeeId: ['eq', 'in'],
    projectId: ['eq', 'in'],
    startDate: ['eq', 'ge', 'le'],
  });
  for (const c of comparisons) {
    if (c.path === 'employeeId') f.employeeIds = both(f.employeeIds, valuesOf(c));
    else if (c.path === 'projectId') f.projectIds = both(f.projectIds, valuesOf(c));
    else {
      const d = day(valuesOf(c)[0] ?? '');
      if (c.op !== 'le' && (f.from === null || d > f.from)) f.from = d;
      if (c.op !== 'ge' && (f.until === null || d < f.until)) f.until = d;
    }
  }
  return f;
}

/**
 * The rows of the employees' timesheets: the hours grouped per employee, ISO week, service and
 * hour type, with the minutes of each day; filtered over the hours, grouped, paged and (when
 * asked) counted in SQL, in one order of their own (employee, week, service, hour type).
 */
export async function listTimesheet(ctx: UserContext, query: ListQuery): Promise<ListResult<TimesheetRow>> {
  assertOwnOrder('timesheet rows', query.orderBy);
  const f = timesheetFilter(query);
  const where = `h.environment_id = $1 AND ($2::text[] IS NULL OR h.employee_id = ANY($2::text[]))
                 AND ($3::text[] IS NULL OR h.project_id = ANY($3::text[]))
                 AND ($4::date IS NULL OR h.start_date >= $4::date) AND ($5::date IS NULL OR h.start_date <= $5::date)`;
  const params = [f.employeeIds, f.projectIds, f.from, f.until];
  const grouped = `SELECT h.employee_id, date_trunc('week', h.start_date)::date AS week, h.project_id, h.project_service_id, h.hour_type_id,
                          json_agg(json_build_object('date', to_char(h.start_date, 'YYYY-MM-DD'), 'minutes', h.duration_minutes)) AS entries,
                          SUM(h.duration_minutes)::int AS total
                     FROM hour_registration h WHERE ${where}
                    GROUP BY 1, 2, 3, 4, 5`;
  const [rows, counted] = await Promise.all([
    ctx.sql.read<{
      employee_id: string;
      week: string;
      project_id: string;
      project_service_id: string;
      hour_type_id: string;
      entries: { date: string; minutes: number }[];
      total: number;
      status: string | null;
    }>(
      `SELECT g.employee_id, to_char(g.week, 'YYYY-MM-DD') AS week, g.project_id, g.project_service_id, g.hour_type_id, g.entries, g.total,
              (SELECT a.status FROM hour_approval a WHERE a.environment_id = $1 AND a.employee_id = g.employee_id AND a.week_start = g.week
                ORDER BY a.created_at DESC, a.id DESC LIMIT 1) AS status
         FROM (${grouped}) g
        ORDER BY g.employee_id, g.week, g.project_service_id, g.hour_type_id
        LIMIT $6 OFFSET $7`,
      [...params, query.limit, query.offset],
    ),
    query.count ? ctx.sql.read<{ n: number }>(`SELECT count(*)::int AS n FROM (${grouped}) g`, params) : null,
  ]);
  const items: TimesheetRow[] = rows.map((r) => {
    const days = Array.from({ length: 7 }, (_v, i) => {
      const d = new Date(`${r.week}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() + i);
      const date = d.toISOString().slice(0, 10);
      return { date, minutes: r.entries.filter((e) => e.date === date).reduce((s, e) => s + e.minutes, 0) };
    });
    return {
      employeeId: r.employee_id,
      weekStart: r.week,
      projectId: r.project_id,
      projectServiceId: r.project_service_id,
      hourTypeId: r.hour_type_id,
      days,
      totalMinutes: r.total,
      status: r.status ?? 'open',
    };
  });
  return { items, count: counted ? (counted[0]?.n ?? 0) : null };
}
