import {
  type EntityCreate,
  type EntityUpdate,
  getEntity,
  inSqlWrite,
  type ReferenceCheck,
  recordChange,
  type SqlWriteContext,
} from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { UserContext } from '../../trpc.js';
import { employee } from '../employee/employee.entity.js';
import { scheduledHours } from '../leave/leave.write.js';
import { absenceType } from '../reference/hrm-lookups.entity.js';
import { absence } from './absence.entity.js';
import type { CreateAbsenceInput, UpdateAbsenceInput } from './absence.schema.js';

const references = (i: UpdateAbsenceInput): ReferenceCheck[] => [
  { path: 'employeeId', target: employee, id: i.employeeId },
  { path: 'absenceTypeId', target: absenceType, id: i.absenceTypeId },
];

/** An absence cannot end before it starts. */
function assertPeriod(start: Date, end: Date | null | undefined): void {
  if (end && end < start) {
    throw new ValidationError([{ path: 'endDate', message: 'An absence cannot end before it starts.', code: 'invalid_period' }]);
  }
}

/** The hours of a closed absence: given, or those the timetables schedule in it; none while ongoing. */
async function hoursOf(
  w: SqlWriteContext,
  employeeId: string,
  start: Date,
  end: Date | null,
  timed: boolean,
  given: number | null | undefined,
) {
  if (given !== undefined && given !== null) return given;
  return end ? scheduledHours(w, employeeId, start, end, timed) : null;
}

/** The absence as stored (start and end are date-times). */
interface StoredAbsence {
  employeeId: string;
  startDate: Date;
  endDate: Date | null;
  isTimeDefined: boolean;
  hours: number | null;
}

async function storedAbsence(w: SqlWriteContext, id: string): Promise<StoredAbsence> {
  const [row] = await w.sql.read<StoredAbsence>(
    `SELECT employee_id AS "employeeId", start_date AS "startDate", end_date AS "endDate",
            is_time_defined AS "isTimeDefined", hours::float8 AS hours
       FROM absence WHERE environment_id = $1 AND id = $2`,
    [id],
  );
  if (!row) throw new NotFoundError('absence', id);
  return row;
}

export const createAbsence: EntityCreate<CreateAbsenceInput> = {
  references,
  async run(w, i) {
    assertPeriod(i.startDate, i.endDate);
    const id = newEntityId('absence');
    const timed = i.isTimeDefined ?? false;
    await w.sql.insert('absence', {
      id,
      employee_id: i.employeeId,
      absence_type_id: i.absenceTypeId,
      start_date: i.startDate,
      end_date: i.endDate ?? null,
      is_time_defined: timed,
      year: i.year ?? i.startDate.getUTCFullYear(),
      hours: await hoursOf(w, i.employeeId, i.startDate, i.endDate ?? null, timed, i.hours),
      description: i.description ?? null,
      updated_at: w.now,
    });
    return id;
  },
};

export const updateAbsence: EntityUpdate<UpdateAbsenceInput> = {
  references,
  async run(w, id, i) {
    const row = await storedAbsence(w, id);
    const start = i.startDate ?? row.startDate;
    const end = i.endDate === undefined ? row.endDate : i.endDate;
    assertPeriod(start, end);
    const employeeId = i.employeeId ?? row.employeeId;
    const timed = i.isTimeDefined ?? row.isTimeDefined;
    const periodChanged = i.startDate !== undefined || i.endDate !== undefined;
    const given = i.hours !== undefined ? i.hours : periodChanged ? undefined : row.hours;
    // undefined columns stay as they are
    await w.sql.update('absence', id, {
      employee_id: employeeId,
      absence_type_id: i.absenceTypeId,
      start_date: start,
      end_date: end,
      is_time_defined: timed,
      year: i.year ?? (i.startDate ? start.getUTCFullYear() : undefined),
      hours: await hoursOf(w, employeeId, start, end, timed, given),
      description: i.description,
      updated_at: w.now,
    });
  },
};

/** absence.close: sets the end date of an ongoing absence (not before its start). */
export async function closeAbsence(ctx: UserContext, id: string, endDate: Date) {
  await inSqlWrite(ctx, async (w) => {
    if (!(await w.sql.lockForUpdate('absence', id))) throw new NotFoundError('absence', id);
    const row = await storedAbsence(w, id);
    if (row.endDate)
      throw new BusinessRuleError(`Absence ${id} is closed already (it ended ${row.endDate.toISOString()}). [absence_closed]`);
    assertPeriod(row.startDate, endDate);
    await w.sql.update('absence', id, {
      end_date: endDate,
      hours: await hoursOf(w, row.employeeId, row.startDate, endDate, row.isTimeDefined, row.hours ?? undefined),
      updated_at: w.now,
    });
    await recordChange(w, absence, id, 'updated', false);
  });
  return getEntity(ctx, absence, id);
}
