import { SCOPED_ENVIRONMENT } from '@bo/db';
import {
  type EntityCreate,
  type EntityUpdate,
  getEntity,
  inWrite,
  type ReferenceCheck,
  recordChange,
  type WriteContext,
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
  w: WriteContext,
  employeeId: string,
  start: Date,
  end: Date | null,
  timed: boolean,
  given: number | null | undefined,
) {
  if (given !== undefined && given !== null) return given;
  return end ? scheduledHours(w, employeeId, start, end, timed) : null;
}

export const createAbsence: EntityCreate<CreateAbsenceInput> = {
  references,
  async run(w, i) {
    assertPeriod(i.startDate, i.endDate);
    const id = newEntityId('absence');
    const timed = i.isTimeDefined ?? false;
    await w.tx.absence.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        employeeId: i.employeeId,
        absenceTypeId: i.absenceTypeId,
        startDate: i.startDate,
        endDate: i.endDate ?? null,
        isTimeDefined: timed,
        year: i.year ?? i.startDate.getUTCFullYear(),
        hours: await hoursOf(w, i.employeeId, i.startDate, i.endDate ?? null, timed, i.hours),
        description: i.description ?? null,
      },
    });
    return id;
  },
};

export const updateAbsence: EntityUpdate<UpdateAbsenceInput> = {
  references,
  async run(w, id, i) {
    const row = await w.tx.absence.findUniqueOrThrow({ where: { id } });
    const start = i.startDate ?? row.startDate;
    const end = i.endDate === undefined ? row.endDate : i.endDate;
    assertPeriod(start, end);
    const employeeId = i.employeeId ?? row.employeeId;
    const timed = i.isTimeDefined ?? row.isTimeDefined;
    const periodChanged = i.startDate !== undefined || i.endDate !== undefined;
    const given = i.hours !== undefined ? i.hours : periodChanged ? undefined : row.hours?.toNumber();
    await w.tx.absence.update({
      where: { id },
      data: {
        employeeId,
        absenceTypeId: i.absenceTypeId,
        startDate: start,
        endDate: end,
        isTimeDefined: timed,
        year: i.year ?? (i.startDate ? start.getUTCFullYear() : undefined),
        hours: await hoursOf(w, employeeId, start, end, timed, given),
        description: i.description,
        updatedAt: w.now,
      },
    });
  },
};

/** absence.close: sets the end date of an ongoing absence (not before its start). */
export async function closeAbsence(ctx: UserContext, id: string, endDate: Date) {
  await inWrite(ctx, async (w) => {
    if (!(await w.sql.lockForUpdate('absence', id))) throw new NotFoundError('absence', id);
    const row = await w.tx.absence.findUniqueOrThrow({ where: { id } });
    if (row.endDate)
      throw new BusinessRuleError(`Absence ${id} is closed already (it ended ${row.endDate.toISOString()}). [absence_closed]`);
    assertPeriod(row.startDate, endDate);
    await w.tx.absence.update({
      where: { id },
      data: {
        endDate,
        hours: await hoursOf(w, row.employeeId, row.startDate, endDate, row.isTimeDefined, row.hours?.toNumber()),
        updatedAt: w.now,
      },
    });
    await recordChange(w, absence, id, 'updated');
  });
  return getEntity(ctx, absence, id);
}
