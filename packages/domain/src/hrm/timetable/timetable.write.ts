import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate, EntityUpdate, ReferenceCheck, WriteContext } from '../../shared/entity/index.js';
import { ValidationError, type Violation } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { employee } from '../employee/employee.entity.js';
import type { CreateTimetableInput, TimetableWeek, UpdateTimetableInput } from './timetable.schema.js';
import { weekHours } from './timetable.schema.js';

const day = (d: Date | null | undefined): string | null => (d ? d.toISOString().slice(0, 10) : null);

interface Period {
  employeeId: string;
  startDate: Date;
  endDate: Date | null;
  hasOddWeeks: boolean;
  evenWeek: TimetableWeek;
  oddWeek: TimetableWeek | null;
}

/**
 * Strict timetable validation (2024-10), on the timetable as it would be stored: the
 * period in order, an odd week where the timetable has odd weeks, and no overlap with
 * another timetable of the employee (checked with the employee's row locked, so two
 * writes cannot both pass). Day-level rules are in the schema.
 */
async function assertValid(w: WriteContext, id: string | null, p: Period): Promise<void> {
  const violations: Violation[] = [];
  if (p.endDate && p.endDate < p.startDate) {
    violations.push({ path: 'endDate', message: 'The end date lies before the start date.', code: 'invalid_period' });
  }
  if (p.hasOddWeeks && !p.oddWeek) {
    violations.push({ path: 'oddWeek', message: 'A timetable with odd weeks needs a complete odd week.', code: 'required' });
  }
  if (violations.length) throw new ValidationError(violations);
  await w.sql.lockForUpdate('employee', p.employeeId);
  const overlapping = await w.sql.read<{ id: string; startDate: string; endDate: string | null }>(
    `SELECT id, to_char(start_date, 'YYYY-MM-DD') AS "startDate", to_char(end_date, 'YYYY-MM-DD') AS "endDate"
       FROM timetable
      WHERE environment_id = $1 AND employee_id = $2 AND id <> $3
        AND start_date <= COALESCE($5::date, 'infinity'::date) AND COALESCE(end_date, 'infinity'::date) >= $4::date
      ORDER BY start_date LIMIT 1`,
    [p.employeeId, id ?? '', day(p.startDate), day(p.endDate)],
  );
  const other = overlapping[0];
  if (other) {
    throw new ValidationError([
      {
        path: 'startDate',
        message: `The period overlaps timetable ${other.id} of the employee (${other.startDate} to ${other.endDate ?? 'open end'}).`,
        code: 'overlap',
      },
    ]);
  }
}

function stored(p: Period) {
  const odd = p.hasOddWeeks && p.oddWeek ? p.oddWeek : p.evenWeek;
  return {
    startDate: p.startDate,
    endDate: p.endDate,
    hasOddWeeks: p.hasOddWeeks,
    evenWeek: p.evenWeek as object,
    oddWeek: odd as object,
    evenWeekHours: weekHours(p.evenWeek),
    oddWeekHours: weekHours(odd),
  };
}

export const createTimetable: EntityCreate<CreateTimetableInput> = {
  references: (input): ReferenceCheck[] => [{ path: 'employeeId', target: employee, id: input.employeeId }],
  async run(w, input) {
    const p: Period = {
      employeeId: input.employeeId,
      startDate: input.startDate,
      endDate: input.endDate ?? null,
      hasOddWeeks: input.hasOddWeeks ?? false,
      evenWeek: input.evenWeek,
      oddWeek: input.oddWeek ?? null,
    };
    await assertValid(w, null, p);
    const id = newEntityId('timetable');
    await w.tx.timetable.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        employeeId: input.employeeId,
        ...stored(p),
        productivityTarget: input.productivityTarget ?? null,
        shouldWriteHours: input.shouldWriteHours ?? true,
        hourlySalesTariff: input.hourlySalesTariff ?? null,
        hourlyCostTariff: input.hourlyCostTariff ?? null,
      },
    });
    return id;
  },
};

export const updateTimetable: EntityUpdate<UpdateTimetableInput> = {
  async run(w, id, input) {
    const row = await w.tx.timetable.findUniqueOrThrow({ where: { id } });
    if (input.employeeId !== undefined && input.employeeId !== row.employeeId) {
      throw new ValidationError([
        {
          path: 'employeeId',
          message: 'A timetable stays with its employee; create one for the other employee.',
          code: 'immutable',
        },
      ]);
    }
    const hasOddWeeks = input.hasOddWeeks ?? row.hasOddWeeks;
    const p: Period = {
      employeeId: row.employeeId,
      startDate: input.startDate ?? row.startDate,
      endDate: input.endDate === undefined ? row.endDate : input.endDate,
      hasOddWeeks,
      evenWeek: input.evenWeek ?? (row.evenWeek as TimetableWeek),
      oddWeek: input.oddWeek === undefined ? (row.hasOddWeeks ? (row.oddWeek as TimetableWeek) : null) : input.oddWeek,
    };
    await assertValid(w, id, p);
    await w.tx.timetable.update({
      where: { id },
      data: {
        ...stored(p),
        productivityTarget: input.productivityTarget,
        shouldWriteHours: input.shouldWriteHours,
        hourlySalesTariff: input.hourlySalesTariff,
        hourlyCostTariff: input.hourlyCostTariff,
        updatedAt: w.now,
      },
    });
  },
};
