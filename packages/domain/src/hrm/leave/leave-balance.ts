import type { TenantSql } from '@bo/db';
import { z } from 'zod';
import { employeeSimple } from './leave.entity.js';

/**
 * Leave balances per employee, leave type (those that affect a balance) and year:
 *  - granted: hours granted by leave entries of kind granted, plus the days off of the
 *    employee's contracts for the leave type contracts grant to: days off × 8 hours ×
 *    the part-time percentage, pro rata the part of the year the contract covers
 *    (a contract without an end runs to the current year);
 *  - taken: hours of taken leave that counts — booked directly (no status) or approved.
 *    Their hours come from the employee's timetables when the entry did not give them.
 *  - balance: granted − taken.
 *
 * A page costs what the page holds, not what the collection holds (issue 15): one statement
 * first pages the keys (employee, leave type, year) — employees walked in the page's order
 * through their (name, id) index, each one's keys found through its own leave and contract
 * rows — and only then sums the leave and contracts of those keys. The count, when asked,
 * counts keys and sums nothing.
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
  /** whether to count the whole filtered collection as well (default: yes) */
  count?: boolean;
  /** the order of the keys; by employee name, leave type label and year when absent */
  sort?: LeaveBalanceSort[];
}

export const LEAVE_BALANCE_SORT_KEYS = ['employee', 'leaveType', 'year'] as const;
export type LeaveBalanceSort = { key: (typeof LEAVE_BALANCE_SORT_KEYS)[number]; dir: 'asc' | 'desc' };

/** ORDER BY of the keys, over the page's columns (`name`, `employee_id`, `label`, `leave_type_id`, `year`), ties broken by the rest. */
function orderOf(sort: LeaveBalanceSort[] | undefined, col: (c: string) => string): string {
  const columns: Record<LeaveBalanceSort['key'], string[]> = {
    employee: ['name', 'employee_id'],
    leaveType: ['label', 'leave_type_id'],
    year: ['year'],
  };
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const s of [...(sort ?? []), ...LEAVE_BALANCE_SORT_KEYS.map((key) => ({ key, dir: 'asc' as const }))]) {
    if (seen.has(s.key)) continue;
    seen.add(s.key);
    for (const c of columns[s.key]) parts.push(`${col(c)} ${s.dir === 'desc' ? 'DESC' : 'ASC'}`);
  }
  return parts.join(', ');
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
}

/**
 * The keys (employee_id, leave_type_id, year) of one employee `e` that pass the filters: those
 * of its counted leave entries and those its contracts grant. A leave entry counts when booked
 * directly (no status) or approved; `approved` is the environment's approved status id.
 */
function keysOf(f: LeaveBalanceFilter, p: (v: unknown) => string): { keys: string; employees: string } {
  const onEntries: string[] = [];
  const onContracts: string[] = [];
  const onEmployees: string[] = [];
  if (f.employeeIds) onEmployees.push(`e.id = ANY(${p(f.employeeIds)}::text[])`);
  if (f.leaveTypeId) {
    const x = p(f.leaveTypeId);
    onEntries.push(`l.leave_type_id = ${x}`);
    onContracts.push(`g.id = ${x}`);
  }
  if (f.year !== undefined) {
    const x = p(f.year);
    onEntries.push(`l.year = ${x}::int`);
    onContracts.push(`y.year = ${x}::int`);
  }
  const and = (list: string[]) => list.map((c) => ` AND ${c}`).join('');
  const keys = `
      SELECT l.leave_type_id, l.year
        FROM leave l
       WHERE l.environment_id = $1 AND l.employee_id = e.id
         AND (l.leave_status_id IS NULL OR l.leave_status_id = (SELECT id FROM approved))${and(onEntries)}
      UNION
      SELECT g.id, y.year
        FROM contract c
        JOIN leave_type g ON g.environment_id = $1 AND g.contract_grants
       CROSS JOIN LATERAL generate_series(extract(year FROM c.start_date)::int,
             COALESCE(extract(year FROM c.end_date)::int, GREATEST($2::int, extract(year FROM c.start_date)::int))) AS y(year)
       WHERE c.environment_id = $1 AND c.employee_id = e.id${and(onContracts)}`;
  return { keys, employees: `e.environment_id = $1${and(onEmployees)}` };
}

const APPROVED = `approved AS (SELECT id FROM leave_status WHERE environment_id = $1 AND key = 'approved')`;

/** The page's statement, its parameters after the environment ($1), for the tenant reader. */
export function leaveBalanceQuery(f: LeaveBalanceFilter, currentYear: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [currentYear];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length + 1}`;
  };
  const k = keysOf(f, p);
  const limit = p(f.limit);
  const offset = p(f.offset);
  // The keys are paged before anything is summed; the sums then read only the page's keys
  // through leave(environment_id, employee_id, leave_type_id, year) and contract(environment_id, employee_id, …).
  const sql = `
WITH ${APPROVED}, page AS (
  SELECT e.id AS employee_id, e.name, e.person_id, t.id AS leave_type_id, t.label, t.blocked, t.color,
         t.affects_balance, t.contract_grants, k.year
    FROM employee e
   CROSS JOIN LATERAL (${k.keys}
   ) k
    JOIN leave_type t ON t.id = k.leave_type_id AND t.environment_id = $1 AND t.affects_balance
   WHERE ${k.employees}
   ORDER BY ${orderOf(f.sort, (c) => ({ name: 'e.name', employee_id: 'e.id', label: 't.label', leave_type_id: 't.id', year: 'k.year' })[c] ?? c)}
   LIMIT ${limit} OFFSET ${offset}
)
SELECT b.employee_id AS "employeeId", b.name AS "employeeName", b.person_id AS "personId",
       b.leave_type_id AS "leaveTypeId", b.label, b.blocked, b.color, b.affects_balance AS "affectsBalance",
       b.year, round(s.granted + COALESCE(g.granted, 0), 2)::float8 AS granted, round(s.taken, 2)::float8 AS taken,
       round(s.granted + COALESCE(g.granted, 0) - s.taken, 2)::float8 AS balance,
       LEAST(s.first_change, g.first_change) AS "firstChange", GREATEST(s.last_change, g.last_change) AS "lastChange"
  FROM page b
 CROSS JOIN LATERAL (
       SELECT COALESCE(sum(l.hours) FILTER (WHERE l.kind = 'granted'), 0) AS granted,
              COALESCE(sum(l.hours) FILTER (WHERE l.kind = 'taken'), 0) AS taken,
              min(l.created_at) AS first_change, max(l.updated_at) AS last_change
         FROM leave l
        WHERE l.environment_id = $1 AND l.employee_id = b.employee_id AND l.leave_type_id = b.leave_type_id
          AND l.year = b.year AND (l.leave_status_id IS NULL OR l.leave_status_id = (SELECT id FROM approved))
       ) s
  LEFT JOIN LATERAL (
       SELECT sum(c.days_off * 8 * c.parttime_percentage / 100
                  * ((LEAST(COALESCE(c.end_date, make_date(b.year, 12, 31)), make_date(b.year, 12, 31))
                      - GREATEST(c.start_date, make_date(b.year, 1, 1)) + 1)::numeric
                     / (make_date(b.year, 12, 31) - make_date(b.year, 1, 1) + 1))) AS granted,
              min(c.created_at) AS first_change, max(c.updated_at) AS last_change
         FROM contract c
        WHERE c.environment_id = $1 AND c.employee_id = b.employee_id
          AND b.year BETWEEN extract(year FROM c.start_date)::int
              AND COALESCE(extract(year FROM c.end_date)::int, GREATEST($2::int, extract(year FROM c.start_date)::int))
       ) g ON b.contract_grants
 ORDER BY ${orderOf(f.sort, (c) => `b.${c}`)}`;
  return { sql, params };
}

/** The size of the filtered collection: its keys counted, nothing summed. */
export function leaveBalanceCountQuery(f: LeaveBalanceFilter, currentYear: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [currentYear];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length + 1}`;
  };
  const k = keysOf(f, p);
  const sql = `
WITH ${APPROVED}
SELECT count(*)::int AS total
  FROM employee e
 CROSS JOIN LATERAL (${k.keys}
 ) k
  JOIN leave_type t ON t.id = k.leave_type_id AND t.environment_id = $1 AND t.affects_balance
 WHERE ${k.employees}`;
  return { sql, params };
}

/** One page of balances and, unless `count: false` (then null), the size of the whole filtered collection. */
export async function readLeaveBalances(
  sql: TenantSql,
  f: LeaveBalanceFilter,
  currentYear: number,
): Promise<{ items: LeaveBalance[]; count: number | null }> {
  const q = leaveBalanceQuery(f, currentYear);
  const rows = await sql.read<Raw>(q.sql, q.params);
  let count: number | null = null;
  if (f.count !== false) {
    const c = leaveBalanceCountQuery(f, currentYear);
    count = (await sql.read<{ total: number }>(c.sql, c.params))[0]?.total ?? 0;
  }
  return {
    count,
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
