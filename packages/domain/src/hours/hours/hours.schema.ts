import { z } from 'zod';
import { customFieldValuesSchema } from '../../customfields/index.js';
import { dateInput } from '../../shared/numbers.js';

/** Minutes in a day: no registration is longer, and no employee books more on one day. */
export const MINUTES_PER_DAY = 1440;

const minutes = z
  .number()
  .int('The duration is a whole number of minutes.')
  .min(1, 'The duration must be at least one minute.')
  .max(MINUTES_PER_DAY, 'The duration cannot exceed 24 hours.');
const hoursValue = z.number().gt(0, 'The hours must be more than zero.').max(24, 'The hours cannot exceed 24 on one day.');

const common = {
  hourTypeId: z.string().min(1).optional(),
  projectServiceId: z.string().min(1).optional(),
  projectId: z.string().min(1).optional(),
  /** a calendar date, or a date-time whose time part sets the start when an end date-time is given */
  startDate: z.string().optional(),
  endDate: z.string().nullable().optional(),
  durationMinutes: minutes.optional(),
  hours: hoursValue.optional(),
  billable: z.boolean().nullable().optional(),
  description: z.string().max(10_000).nullable().optional(),
  source: z.enum(['schedule', 'timer', 'timesheet']).nullable().optional(),
  customFields: customFieldValuesSchema,
};

export const createHoursInput = z.object({
  employeeId: z.string().min(1),
  ...common,
  hourTypeId: z.string().min(1),
  projectServiceId: z.string().min(1),
  startDate: z.string().min(1),
});
export const updateHoursInput = z.object({ employeeId: z.string().min(1).optional(), ...common });
export type CreateHoursInput = z.infer<typeof createHoursInput>;
export type UpdateHoursInput = z.infer<typeof updateHoursInput>;

export { dateInput };
