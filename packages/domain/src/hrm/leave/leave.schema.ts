import { parseDateTime } from '@bo/db';
import { z } from 'zod';

/** A date or a date-time (`YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`), as v2 clients send them. */
export const dateTimeInput = z
  .string()
  .refine((s) => parseDateTime(s) !== null, { message: 'This value is not a valid date or date-time.' })
  .transform((s) => parseDateTime(s) as Date);

const hours = z.number().finite().min(0, 'Hours cannot be negative.').max(10_000);

/**
 * A leave write (PostLeave). With a start date it is leave taken over that period (its
 * hours, when not given, are the hours the employee's timetables schedule in it); without
 * one it grants `hours` for `year`. `allowNegative` is the explicit flag that lets the
 * balance of the employee, type and year go below zero.
 */
export const leaveFields = {
  employeeId: z.string().min(1),
  leaveTypeId: z.string().min(1),
  isTimeDefined: z.boolean().optional(),
  startDate: dateTimeInput.nullable().optional(),
  endDate: dateTimeInput.nullable().optional(),
  year: z.number().int().min(1900).max(2200).optional(),
  hours: hours.optional(),
  description: z.string().max(10_000).nullable().optional(),
  allowNegative: z.boolean().optional(),
};
export const createLeaveInput = z.object(leaveFields);
export const updateLeaveInput = z.object({
  ...leaveFields,
  employeeId: z.string().min(1).optional(),
  leaveTypeId: z.string().min(1).optional(),
});
export type CreateLeaveInput = z.infer<typeof createLeaveInput>;
export type UpdateLeaveInput = z.infer<typeof updateLeaveInput>;

/** leave.request: leave taken over a period, waiting for approval. */
export const requestLeaveInput = z.object({
  employeeId: z.string().min(1),
  leaveTypeId: z.string().min(1),
  startDate: dateTimeInput,
  endDate: dateTimeInput.nullable().optional(),
  isTimeDefined: z.boolean().optional(),
  hours: hours.optional(),
  description: z.string().max(10_000).nullable().optional(),
  allowNegative: z.boolean().optional(),
});
export type RequestLeaveInput = z.infer<typeof requestLeaveInput>;

export const decideLeaveInput = z.object({ id: z.string().min(1), allowNegative: z.boolean().optional() });
