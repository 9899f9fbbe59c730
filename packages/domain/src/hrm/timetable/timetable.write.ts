import type { EntityCreate, EntityUpdate, ReferenceCheck, SqlWriteContext } from '../../shared/entity/index.js';
import { NotFoundError, ValidationError, type Violation } from '../../shared/errors.js';
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
async function assertValid(w: SqlWriteContext, id: string | null, p: Period): Promise<void> {
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

/** The period's columns as stored: the odd week is the even week unless the timetable has odd weeks. */
function stored(p: Period) {
  const odd = p.hasOddWeeks && p.oddWeek ? p.oddWeek : p.evenWeek;
  return {
    start_date: day(p.startDate),
    end_date: day(p.endDate),
    has_odd_weeks: p.hasOddWeeks,
    even_week: JSON.stringify(p.evenWeek),
    odd_week: JSON.stringify(odd),
    even_week_hours: weekHours(p.evenWeek),
    odd_week_hours: weekHours(odd),
  };
}

/** What an update reads of the stored timetable (dates as YYYY-MM-DD, the weeks parsed). */
interface StoredTimetable {
  employeeId: string;
  startDate: string;
  endDate: string | null;
  hasOddWeeks: boolean;
  evenWeek: TimetableWeek;
  oddWeek: TimetableWeek;
}

const dateOf = (d: string): Date => new Date(`${d}T00:00:00.000Z`);

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
    await w.sql.insert('timetable', {
      id,
      employee_id: input.employeeId,
      ...stored(p),
      productivity_target: input.productivityTarget ?? null,
      should_write_hours: input.shouldWriteHours ?? true,
      hourly_sales_tariff: input.hourlySalesTariff ?? null,
      hourly_cost_tariff: input.hourlyCostTariff ?? null,
      updated_at: w.now,
    });
    return id;
  },
};

export const updateTimetable: EntityUpdate<UpdateTimetableInput> = {
  async run(w, id, input) {
    const [row] = await w.sql.read<StoredTimetable>(
      `SELECT employee_id AS "employeeId", to_char(start_date, 'YYYY-MM-DD') AS "startDate",
              to_char(end_date, 'YYYY-MM-DD') AS "endDate", has_odd_weeks AS "hasOddWeeks",
              even_week AS "evenWeek", odd_week AS "oddWeek"
         FROM timetable WHERE environment_id = $1 AND id = $2`,
      [id],
    );
    if (!row) throw new NotFoundError('timetable', id);
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
      startDate: input.startDate ?? dateOf(row.startDate),
      endDate: input.endDate === undefined ? (row.endDate === null ? null : dateOf(row.endDate)) : input.endDate,
      hasOddWeeks,
      evenWeek: input.evenWeek ?? row.evenWeek,
      oddWeek: input.oddWeek === undefined ? (row.hasOddWeeks ? row.oddWeek : null) : input.oddWeek,
    };
    await assertValid(w, id, p);
    // undefined columns stay as they are
    await w.sql.update('timetable', id, {
      ...stored(p),
      productivity_target: input.productivityTarget,
      should_write_hours: input.shouldWriteHours,
      hourly_sales_tariff: input.hourlySalesTariff,
      hourly_cost_tariff: input.hourlyCostTariff,
      updated_at: w.now,
    });
  },
};
