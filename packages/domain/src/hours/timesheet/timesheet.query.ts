import { parseDateTime } from '@bo/db';
import { z } from 'zod';
import { BadRequestError } from '../../shared/errors.js';
import type { UserContext } from '../../trpc.js';
import type { HoursPageInput } from '../hours/hours.page.js';

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

export const TIMESHEET_FILTERS = ['employeeId', 'projectId', 'date[ge]', 'date[le]'] as const;

function one(filters: Record<string, string[]>, name: string, date = false): string | null {
  const values = filters[name];
  if (!values) return null;
  const [value] = values;
  if (values.length !== 1 || value === undefined || value === '' || (date && !parseDateTime(value))) {
    throw new BadRequestError(`${name} takes one ${date ? 'date (YYYY-MM-DD)' : 'value'}`, name);
  }
  return date ? value.slice(0, 10) : value;
}

/**
 * timesheet.list of v3: the hours grouped per employee, ISO week, service and hour type,
 * with the minutes of each day; grouped, counted and paged in SQL.
 */
export async function timesheetPage(ctx: UserContext, input: HoursPageInput) {
  const employeeId = one(input.filters, 'employeeId');
  const projectId = one(input.filters, 'projectId');
  const from = one(input.filters, 'date[ge]', true);
  const until = one(input.filters, 'date[le]', true);
  const where = `h.environment_id = $1 AND ($2::text IS NULL OR h.employee_id = $2) AND ($3::text IS NULL OR h.project_id = $3)
                 AND ($4::date IS NULL OR h.start_date >= $4::date) AND ($5::date IS NULL OR h.start_date <= $5::date)`;
  const params = [employeeId, projectId, from, until];
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
      [...params, input.itemsPerPage, (input.page - 1) * input.itemsPerPage],
    ),
    ctx.sql.read<{ n: number }>(`SELECT count(*)::int AS n FROM (${grouped}) g`, params),
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
  const total = counted[0]?.n ?? 0;
  return {
    items,
    page: input.page,
    itemsPerPage: input.itemsPerPage,
    totalItems: total,
    totalPages: Math.ceil(total / input.itemsPerPage),
  };
}
