import type { EntityCreate, EntityUpdate, ReferenceCheck, SqlWriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { employee } from '../employee/employee.entity.js';
import { leaveType } from '../reference/hrm-lookups.entity.js';
import { readLeaveBalances } from './leave-balance.js';
import type { CreateLeaveInput, UpdateLeaveInput } from './leave.schema.js';

const day = (d: Date) => d.toISOString().slice(0, 10);

export const leaveReferences = (input: { employeeId?: string; leaveTypeId?: string }): ReferenceCheck[] => [
  { path: 'employeeId', target: employee, id: input.employeeId },
  { path: 'leaveTypeId', target: leaveType, id: input.leaveTypeId },
];

/**
 * The hours a period of leave takes: for a period with times, the hours between them;
 * for whole days, the hours the employee's timetables schedule on those days (the even
 * or odd week by ISO week number, the day by ISO weekday). Days outside every timetable take none.
 */
export async function scheduledHours(
  w: SqlWriteContext,
  employeeId: string,
  start: Date,
  end: Date,
  timed: boolean,
): Promise<number> {
  if (timed) return Math.round(((end.getTime() - start.getTime()) / 3_600_000) * 100) / 100;
  const [row] = await w.sql.read<{ hours: number }>(
    `SELECT COALESCE(sum(((CASE WHEN t.has_odd_weeks AND extract(week FROM d)::int % 2 = 1 THEN t.odd_week ELSE t.even_week END)
              -> ('day' || extract(isodow FROM d)::int) ->> 'hours')::numeric), 0)::float8 AS hours
       FROM generate_series($3::date, $4::date, interval '1 day') AS d
       JOIN timetable t ON t.environment_id = $1 AND t.employee_id = $2
        AND t.start_date <= d::date AND COALESCE(t.end_date, 'infinity'::date) >= d::date`,
    [employeeId, day(start), day(end)],
  );
  return row?.hours ?? 0;
}

export interface LeaveValues {
  kind: 'granted' | 'taken';
  startDate: Date | null;
  endDate: Date | null;
  year: number;
  hours: number;
  isTimeDefined: boolean;
}

/** A leave write as it will be stored: taken over a period when it has a start date, a grant for a year otherwise. */
export async function leaveValues(w: SqlWriteContext, employeeId: string, i: UpdateLeaveInput): Promise<LeaveValues> {
  const timed = i.isTimeDefined ?? false;
  if (i.startDate) {
    const start = i.startDate;
    const end = i.endDate ?? (timed ? null : start);
    if (!end) {
      throw new ValidationError([{ path: 'endDate', message: 'Leave with times needs an end.', code: 'required' }]);
    }
    if (end < start) {
      throw new ValidationError([{ path: 'endDate', message: 'The end lies before the start.', code: 'invalid_period' }]);
    }
    const hours = i.hours ?? (await scheduledHours(w, employeeId, start, end, timed));
    return { kind: 'taken', startDate: start, endDate: end, year: i.year ?? start.getUTCFullYear(), hours, isTimeDefined: timed };
  }
  const missing = [
    ...(i.year === undefined
      ? [{ path: 'year', message: 'Granted leave (no start date) needs the year it is for.', code: 'required' }]
      : []),
    ...(i.hours === undefined
      ? [{ path: 'hours', message: 'Granted leave (no start date) needs its hours.', code: 'required' }]
      : []),
  ];
  if (missing.length || i.year === undefined || i.hours === undefined) throw new ValidationError(missing);
  return { kind: 'granted', startDate: null, endDate: null, year: i.year, hours: i.hours, isTimeDefined: false };
}

/**
 * A balance never goes negative without an explicit flag: after the write (inside its
 * transaction), the balance of the employee, type and year, less `pending` hours not
 * yet counted (a request), must not be below zero unless the write allows it.
 */
export async function assertBalance(
  w: SqlWriteContext,
  at: { employeeId: string; leaveTypeId: string; year: number },
  allowNegative: boolean,
  pending = 0,
): Promise<void> {
  if (allowNegative) return;
  await holdEmployees(w, [at.employeeId]);
  const { items } = await readLeaveBalances(
    w.sql,
    { employeeIds: [at.employeeId], leaveTypeId: at.leaveTypeId, year: at.year, offset: 0, limit: 1, count: false },
    w.now.getUTCFullYear(),
  );
  const b = items[0];
  if (!b) return;
  const after = Math.round((b.balance - pending) * 100) / 100;
  if (after < 0) {
    throw new ValidationError([
      {
        path: 'hours',
        message: `This leave would make the ${b.leaveType.label} balance of ${b.employee.name} for ${at.year} negative (${after} hours); a negative balance must be allowed explicitly (allowNegative).`,
        code: 'negative_balance',
      },
    ]);
  }
}

/**
 * Leave writes of one employee run one after the other, so that each balance check sees
 * the hours the other committed. Taken before the write: inserting a leave row share-locks
 * its employee, and two writes that each held that share and then asked for the row would deadlock.
 */
export async function holdEmployees(w: SqlWriteContext, employeeIds: string[]): Promise<void> {
  for (const id of [...new Set(employeeIds)].sort()) await w.sql.lockForUpdate('employee', id);
}

export async function leaveStatusId(w: SqlWriteContext, key: 'requested' | 'approved' | 'rejected'): Promise<string> {
  const [row] = await w.sql.read<{ id: string }>('SELECT id FROM leave_status WHERE environment_id = $1 AND key = $2', [key]);
  if (!row) throw new BusinessRuleError(`This environment has no leave status ${key}.`);
  return row.id;
}

/** A leave entry's columns as stored from its values. */
export function leaveColumns(v: LeaveValues) {
  return {
    kind: v.kind,
    start_date: v.startDate,
    end_date: v.endDate,
    year: v.year,
    hours: v.hours,
    is_time_defined: v.isTimeDefined,
  };
}

/** A leave entry as stored, with the key of its status (null: booked directly). */
export interface StoredLeave {
  employeeId: string;
  leaveTypeId: string;
  kind: string;
  startDate: Date | null;
  endDate: Date | null;
  isTimeDefined: boolean;
  year: number;
  hours: number;
  allowNegative: boolean;
  statusKey: string | null;
}

export async function storedLeave(w: SqlWriteContext, id: string): Promise<StoredLeave> {
  const [row] = await w.sql.read<StoredLeave>(
    `SELECT l.employee_id AS "employeeId", l.leave_type_id AS "leaveTypeId", l.kind, l.start_date AS "startDate",
            l.end_date AS "endDate", l.is_time_defined AS "isTimeDefined", l.year, l.hours::float8 AS hours,
            l.allow_negative AS "allowNegative", s.key AS "statusKey"
       FROM leave l LEFT JOIN leave_status s ON s.environment_id = $1 AND s.id = l.leave_status_id
      WHERE l.environment_id = $1 AND l.id = $2`,
    [id],
  );
  if (!row) throw new NotFoundError('leave', id);
  return row;
}

/**
 * hrm/leave and hours/leave (booking leave as hours): leave written directly, without a
 * status, counted at once; or a grant. The balance rule applies.
 */
export const createLeave: EntityCreate<CreateLeaveInput> = {
  references: leaveReferences,
  async run(w, i) {
    await holdEmployees(w, [i.employeeId]);
    const v = await leaveValues(w, i.employeeId, i);
    const id = newEntityId('leave');
    await w.sql.insert('leave', {
      id,
      employee_id: i.employeeId,
      leave_type_id: i.leaveTypeId,
      ...leaveColumns(v),
      description: i.description ?? null,
      allow_negative: i.allowNegative ?? false,
      updated_at: w.now,
    });
    await assertBalance(w, { employeeId: i.employeeId, leaveTypeId: i.leaveTypeId, year: v.year }, i.allowNegative ?? false);
    return id;
  },
};

export const updateLeave: EntityUpdate<UpdateLeaveInput> = {
  references: leaveReferences,
  async run(w, id, i) {
    const row = await storedLeave(w, id);
    const employeeId = i.employeeId ?? row.employeeId;
    await holdEmployees(w, [row.employeeId, employeeId]);
    const leaveTypeId = i.leaveTypeId ?? row.leaveTypeId;
    const merged: UpdateLeaveInput = {
      isTimeDefined: i.isTimeDefined ?? row.isTimeDefined,
      startDate: i.startDate === undefined ? row.startDate : i.startDate,
      endDate: i.endDate === undefined ? row.endDate : i.endDate,
      year: i.year ?? (i.startDate ? undefined : row.year),
      // hours follow a changed period unless given
      hours: i.hours ?? (i.startDate !== undefined || i.endDate !== undefined ? undefined : row.hours),
    };
    const v = await leaveValues(w, employeeId, merged);
    const allowNegative = i.allowNegative ?? row.allowNegative;
    // the description stays as it is when not named
    await w.sql.update('leave', id, {
      employee_id: employeeId,
      leave_type_id: leaveTypeId,
      ...leaveColumns(v),
      description: i.description,
      allow_negative: allowNegative,
      updated_at: w.now,
    });
    const pending = row.statusKey === 'requested' && v.kind === 'taken' ? v.hours : 0;
    if (row.statusKey !== 'rejected') await assertBalance(w, { employeeId, leaveTypeId, year: v.year }, allowNegative, pending);
    // the old employee, type and year lose this entry's hours when it moved: a grant moved away may leave them negative
    if (row.kind === 'granted' && (row.employeeId !== employeeId || row.leaveTypeId !== leaveTypeId || row.year !== v.year)) {
      await assertBalance(w, { employeeId: row.employeeId, leaveTypeId: row.leaveTypeId, year: row.year }, allowNegative);
    }
  },
};
