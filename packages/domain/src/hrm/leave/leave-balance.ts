import type { TenantSql } from '@bo/db';
import { z } from 'zod';
import { employeeSimple } from './leave.entity.js';

/**
 * Leave balances per employee, leave type (those that affect a balance) and year, in
 * one SQL statement per page:
 *  - granted: hours granted by leave entries of kind granted, plus the days off of the
 *    employee's contracts for the leave type contracts grant to: days off × 8 hours ×
 *    the part-time percentage, pro rata the part of the year the contract covers
 *    (a contract without an end runs to the current year);
 *  - taken: hours of taken leave that counts — booked directly (no status) or approved.
 *    Their hours come from the employee's timetables when the entry did not give them.
 *  - balance: granted − taken.
 */
export const leaveBalanceRow = z.object({
  employee: employeeSimple,
  leaveType: z.object({
    id: z.string(),
    label: z.string(),
    blocked: z.boolean(),
    color: z.string().nullable(),
    affectsBalance: z.boolean(),
  }),
  year: z.number().int(),
  granted: z.number(),
  taken: z.number(),
  balance: z.number(),
  firstChange: z.date().nullable(),
  lastChange: z.date().nullable(),
});
export type LeaveBalance = z.infer<typeof leaveBalanceRow>;

export interface LeaveBalanceFilter {
  employeeIds?: string[];
  leaveTypeId?: string;
  year?: number;
  offset: number;
  limit: number;
}

interface Raw {
  employeeId: string;
  employeeName: string;
  personId: string | null;
  leaveTypeId: string;
  label: string;
  blocked: boolean;
  color: string | null;
  affectsBalance: boolean;
  year: number;
  granted: number;
  taken: number;
  balance: number;
  firstChange: Date | null;
  lastChange: Date | null;
  total: number;
}

/** The statement, its parameters after the environment ($1), for the tenant reader. */
export function leaveBalanceQuery(f: LeaveBalanceFilter, currentYear: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [currentYear];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length + 1}`;
  };
  const onEntries: string[] = [];
  const onContracts: string[] = [];
  if (f.employeeIds) {
    const x = p(f.employeeIds);
    onEntries.push(`l.employee_id = ANY(${x}::text[])`);
    onContracts.push(`c.employee_id = ANY(${x}::text[])`);
  }
  if (f.leaveTypeId) {
    const x = p(f.leaveTypeId);
    onEntries.push(`l.leave_type_id = ${x}`);
    onContracts.push(`lt.id = ${x}`);
  }
  if (f.year !== undefined) {
    const x = p(f.year);
    onEntries.push(`l.year = ${x}::int`);
    onContracts.push(`y.year = ${x}::int`);
    onContracts.push(
      `c.start_date <= make_date(${x}::int, 12, 31) AND COALESCE(c.end_date, 'infinity'::date) >= make_date(${x}::int, 1, 1)`,
    );
  }
  const and = (list: string[]) => list.map((c) => ` AND ${c}`).join('');
  const limit = p(f.limit);
  const offset = p(f.offset);
  const sql = `
WITH entries AS (
  SELECT l.employee_id, l.leave_type_id, l.year,
         COALESCE(sum(l.hours) FILTER (WHERE l.kind = 'granted'), 0) AS granted,
         COALESCE(sum(l.hours) FILTER (WHERE l.kind = 'taken'), 0) AS taken,
         min(l.created_at) AS first_change, max(l.updated_at) AS last_change
    FROM leave l
    LEFT JOIN leave_status s ON s.id = l.leave_status_id AND s.environment_id = $1
   WHERE l.environment_id = $1 AND (l.leave_status_id IS NULL OR s.key = 'approved')${and(onEntries)}
   GROUP BY l.employee_id, l.leave_type_id, l.year
), contracted AS (
  SELECT c.employee_id, lt.id AS leave_type_id, y.year,
         sum(c.days_off * 8 * c.parttime_percentage / 100
             * ((LEAST(COALESCE(c.end_date, make_date(y.year, 12, 31)), make_date(y.year, 12, 31))
                 - GREATEST(c.start_date, make_date(y.year, 1, 1)) + 1)::numeric
                / (make_date(y.year, 12, 31) - make_date(y.year, 1, 1) + 1))) AS granted,
         min(c.created_at) AS first_change, max(c.updated_at) AS last_change
    FROM contract c
    JOIN leave_type lt ON lt.environment_id = $1 AND lt.contract_grants
   CROSS JOIN LATERAL generate_series(extract(year FROM c.start_date)::int,
         COALESCE(extract(year FROM c.end_date)::int, GREATEST($2::int, extract(year FROM c.start_date)::int))) AS y(year)
   WHERE c.environment_id = $1${and(onContracts)}
   GROUP BY c.employee_id, lt.id, y.year
), combined AS (
  SELECT employee_id, leave_type_id, year, sum(granted) AS granted, sum(taken) AS taken,
         min(first_change) AS first_change, max(last_change) AS last_change
    FROM (SELECT employee_id, leave_type_id, year, granted, taken, first_change, last_change FROM entries
          UNION ALL
          SELECT employee_id, leave_type_id, year, granted, 0, first_change, last_change FROM contracted) u
   GROUP BY employee_id, leave_type_id, year
)
SELECT b.employee_id AS "employeeId", e.name AS "employeeName", e.person_id AS "personId",
       lt.id AS "leaveTypeId", lt.label, lt.blocked, lt.color, lt.affects_balance AS "affectsBalance",
       b.year, round(b.granted, 2)::float8 AS granted, round(b.taken, 2)::float8 AS taken,
       round(b.granted - b.taken, 2)::float8 AS balance,
       b.first_change AS "firstChange", b.last_change AS "lastChange", (count(*) OVER ())::int AS total
  FROM combined b
  JOIN employee e ON e.id = b.employee_id AND e.environment_id = $1
  JOIN leave_type lt ON lt.id = b.leave_type_id AND lt.environment_id = $1 AND lt.affects_balance
 ORDER BY e.name, e.id, lt.label, lt.id, b.year
 LIMIT ${limit} OFFSET ${offset}`;
  return { sql, params };
}

/** One page of balances and the size of the whole filtered collection, from one statement. */
export async function readLeaveBalances(
  sql: TenantSql,
  f: LeaveBalanceFilter,
  currentYear: number,
): Promise<{ items: LeaveBalance[]; count: number }> {
  const q = leaveBalanceQuery(f, currentYear);
  const rows = await sql.read<Raw>(q.sql, q.params);
  return {
    count: rows[0]?.total ?? 0,
    items: rows.map((r) => ({
      employee: { id: r.employeeId, personId: r.personId, name: r.employeeName },
      leaveType: { id: r.leaveTypeId, label: r.label, blocked: r.blocked, color: r.color, affectsBalance: r.affectsBalance },
      year: r.year,
      granted: r.granted,
      taken: r.taken,
      balance: r.balance,
      firstChange: r.firstChange,
      lastChange: r.lastChange,
    })),
  };
}
