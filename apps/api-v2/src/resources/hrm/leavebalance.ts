import { BadRequestError } from '@bo/domain';
import type { LeaveBalance } from '@bo/domain/hrm/leave/leave-balance';
import { leaveBalanceQueryInput } from '@bo/domain/hrm/leave/leave.router';
import { z } from 'zod';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Operation } from '../v2-operation.js';
import { employeeSimpleV2 } from './employee.js';

const FILTERS: Record<string, 'employee' | 'type' | 'year'> = {
  'q[employee_id]': 'employee',
  'q[employee.id]': 'employee',
  'q[leavetype_id]': 'type',
  'q[leave_type_id]': 'type',
  'q[leavetype.id]': 'type',
  'q[year]': 'year',
};

/** v2 sort keys of hrm/leavebalance → the domain's */
const SORTS: Record<string, 'employee' | 'leaveType' | 'year'> = {
  employee: 'employee',
  'employee.name': 'employee',
  employee_id: 'employee',
  'employee.id': 'employee',
  leavetype: 'leaveType',
  'leavetype.label': 'leaveType',
  leavetype_id: 'leaveType',
  'leavetype.id': 'leaveType',
  year: 'year',
};

/**
 * The v2 parameters of hrm/leavebalance: `q[employee.id]` (or `q[employee_id]`, several
 * comma-separated), `q[leavetype.id]`, `q[year]`, `sort` (employee.name, leavetype.label,
 * year; `-` for descending), `metadata` (count, limit, offset), `limit` (at most 100) and
 * `offset`. Any other parameter is refused (400), not ignored.
 */
export function leaveBalanceParams(raw: Record<string, string>): z.input<typeof leaveBalanceQueryInput> {
  // no count unless metadata=count asks for it (it walks the whole collection)
  const out: z.input<typeof leaveBalanceQueryInput> = { count: false };
  for (const [key, value] of Object.entries(raw)) {
    const filter = FILTERS[key];
    const number = (what: string) => {
      if (!/^\d+$/.test(value)) throw new BadRequestError(`${key}: ${what} must be a whole number`, key);
      return Number(value);
    };
    if (filter === 'employee') out.employeeIds = value.split(',').filter(Boolean);
    else if (filter === 'type') out.leaveTypeId = value;
    else if (filter === 'year') out.year = number('the year');
    else if (key === 'limit') out.limit = Math.min(number('limit'), 100);
    else if (key === 'offset') out.offset = number('offset');
    else if (key === 'metadata') {
      for (const m of value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        if (m === 'count') out.count = true;
        else if (m !== 'limit' && m !== 'offset')
          throw new BadRequestError(`metadata: ${m} is not one of count, limit and offset`, key);
      }
    } else if (key === 'sort') {
      out.sort = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => {
          const dir = s.startsWith('-') ? ('desc' as const) : ('asc' as const);
          const sortKey = SORTS[s.replace(/^[-+]/, '')];
          if (!sortKey) throw new BadRequestError(`sort: hrm/leavebalance sorts on employee.name, leavetype.label and year`, key);
          return { key: sortKey, dir };
        });
      if ((out.sort?.length ?? 0) > 3) throw new BadRequestError('sort: at most 3 keys', key);
    } else throw new BadRequestError(`${key}: hrm/leavebalance filters on employee.id, leavetype.id and year only`, key);
  }
  return out;
}

/** The v2 read of one balance (reference: LeaveBalance), for the document. */
const leaveBalanceRowV2Schema = z.object({
  employee: z.object({ id: z.string(), person_id: z.string().nullable(), name: z.string() }),
  leavetype: z.object({
    id: z.string(),
    label: z.string(),
    blocked: z.boolean(),
    color: z.string().nullable(),
    affects_balance: z.boolean(),
  }),
  year: z.number().int(),
  balance: z.number(),
  granted: z.number(),
  taken: z.number(),
  first_change: z.string().nullable(),
  last_change: z.string().nullable(),
});

export function leaveBalanceRowV2(b: LeaveBalance): Record<string, unknown> {
  return {
    employee: employeeSimpleV2(b.employee),
    leavetype: {
      id: b.leaveType.id,
      label: b.leaveType.label,
      blocked: b.leaveType.blocked,
      color: b.leaveType.color,
      affects_balance: b.leaveType.affectsBalance,
    },
    year: b.year,
    balance: b.balance,
    granted: b.granted,
    taken: b.taken,
    first_change: v2DateTime(b.firstChange),
    last_change: v2DateTime(b.lastChange),
  };
}

/**
 * hrm/leavebalance (reference: LeaveBalance): per employee, leave type and year; one SQL
 * statement per page. The reference types last_change as a number; it is the date-time
 * of the last change here, like first_change. granted and taken are extensions.
 */
export const leaveBalanceV2 = v2Operation<{ items: LeaveBalance[]; count: number | null }>({
  method: 'GET',
  path: 'hrm/leavebalance',
  summary: 'Leave balances per employee, leave type and year',
  // the parameters keep their v2 spelling: leaveBalanceParams reads them as they came
  names: v2Names(Object.fromEntries([...Object.keys(FILTERS), 'metadata', 'sort'].map((k) => [k, k]))),
  call: (c) => (raw: never) => c.hrm.leave.balances(leaveBalanceParams(raw as Record<string, string>)),
  input: leaveBalanceQueryInput,
  output: z.array(leaveBalanceRowV2Schema),
  show: (o) => o.items.map(leaveBalanceRowV2),
  metadata: (o, raw) => {
    const asked = (raw.metadata ?? '').split(',').map((s) => s.trim());
    if (!asked.some(Boolean)) return undefined;
    const out: Record<string, number> = {};
    if (asked.includes('count')) out.count = o.count ?? 0;
    if (asked.includes('limit')) out.limit = Math.min(Number(raw.limit ?? 100) || 100, 100);
    if (asked.includes('offset')) out.offset = Number(raw.offset ?? 0) || 0;
    return out;
  },
});
