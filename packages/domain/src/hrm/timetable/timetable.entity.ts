import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { employee } from '../employee/employee.entity.js';
import { type TimetableWeek, timetableWeek } from './timetable.schema.js';

/** A working pattern of an employee for a period: the hours of each day of an even and an odd week. */
export const timetable = defineEntity({
  type: 'timetable',
  table: 'timetable',
  module: 'hrm',
  defaultSort: [{ path: 'startDate', dir: 'asc' }],
  fields: {
    id: f.id(),
    employee: f.ref(
      (): TargetEntity => employee,
      z.object({ id: z.string(), personId: z.string().nullable(), name: z.string() }),
      {
        column: 'employee_id',
        writable: false,
      },
    ),
    startDate: f.date(),
    /** empty while the timetable runs on */
    endDate: f.date(),
    hasOddWeeks: f.boolean(),
    evenWeek: f.json<TimetableWeek>(timetableWeek),
    oddWeek: f.json<TimetableWeek>(timetableWeek),
    /** the hours of the seven days of each week */
    evenWeekHours: f.decimal({ writable: false }),
    oddWeekHours: f.decimal({ writable: false }),
    productivityTarget: f.integer(),
    shouldWriteHours: f.boolean(),
    hourlySalesTariff: f.decimal(),
    hourlyCostTariff: f.decimal(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Timetable = z.infer<typeof timetable.schema>;
