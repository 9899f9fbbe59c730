import { z } from 'zod';
import { dateInput, money } from '../../shared/numbers.js';

/** A time of day in hours (8.5 is 08:30). */
const hourOfDay = z
  .number()
  .finite()
  .min(0, 'A time of day lies between 0 and 24.')
  .max(24, 'A time of day lies between 0 and 24.');

/**
 * One day of a timetable week (2024-10): its hours between 0 and 24 and, where given,
 * a start and an end that make sense: the start before the end, and the hours fitting between them.
 */
export const timetableDay = z
  .object({
    startTime: hourOfDay.nullable().optional(),
    endTime: hourOfDay.nullable().optional(),
    hours: z.number().finite().min(0, 'Hours per day lie between 0 and 24.').max(24, 'Hours per day lie between 0 and 24.'),
  })
  .strict()
  .superRefine((d, ctx) => {
    const start = d.startTime ?? null;
    const end = d.endTime ?? null;
    if ((start === null) !== (end === null)) {
      ctx.addIssue({
        code: 'custom',
        path: [start === null ? 'startTime' : 'endTime'],
        message: 'Give both the start and the end of the day, or neither.',
      });
      return;
    }
    if (start !== null && end !== null) {
      if (start > end || (start === end && d.hours > 0)) {
        ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'The end of the day lies before its start.' });
      } else if (d.hours > end - start + 1e-9) {
        ctx.addIssue({
          code: 'custom',
          path: ['hours'],
          message: 'The hours do not fit between the start and the end of the day.',
        });
      }
    }
  });

const DAYS = ['day1', 'day2', 'day3', 'day4', 'day5', 'day6', 'day7'] as const;

/** A complete week: all seven days (day1 is Monday), each valid. */
export const timetableWeek = z
  .object(Object.fromEntries(DAYS.map((d) => [d, timetableDay])) as Record<(typeof DAYS)[number], typeof timetableDay>)
  .strict();
export type TimetableWeek = z.infer<typeof timetableWeek>;

export const weekHours = (w: TimetableWeek): number => DAYS.reduce((sum, d) => sum + w[d].hours, 0);

const fields = {
  hasOddWeeks: z.boolean().optional(),
  evenWeek: timetableWeek.optional(),
  /** required when hasOddWeeks; otherwise the odd week is the even week */
  oddWeek: timetableWeek.nullable().optional(),
  endDate: dateInput.nullable().optional(),
  productivityTarget: z.number().int().min(0).max(100).nullable().optional(),
  shouldWriteHours: z.boolean().optional(),
  hourlySalesTariff: money.nullable().optional(),
  hourlyCostTariff: money.nullable().optional(),
};

export const createTimetableInput = z.object({
  employeeId: z.string().min(1),
  startDate: dateInput,
  ...fields,
  evenWeek: timetableWeek,
});
export const updateTimetableInput = z.object({
  /** a timetable stays with its employee: naming another is refused */
  employeeId: z.string().min(1).optional(),
  startDate: dateInput.optional(),
  ...fields,
});
export type CreateTimetableInput = z.infer<typeof createTimetableInput>;
export type UpdateTimetableInput = z.infer<typeof updateTimetableInput>;
