import { z } from 'zod';
import { dateTimeInput } from '../leave/leave.schema.js';

/** An absence write (PostAbsence); no end date while it is ongoing. */
const fields = {
  employeeId: z.string().min(1),
  absenceTypeId: z.string().min(1),
  startDate: dateTimeInput,
  endDate: dateTimeInput.nullable().optional(),
  isTimeDefined: z.boolean().optional(),
  year: z.number().int().min(1900).max(2200).optional(),
  hours: z.number().finite().min(0).max(10_000).nullable().optional(),
  description: z.string().max(10_000).nullable().optional(),
};
export const createAbsenceInput = z.object(fields);
export const updateAbsenceInput = z.object({
  ...fields,
  employeeId: z.string().min(1).optional(),
  absenceTypeId: z.string().min(1).optional(),
  startDate: dateTimeInput.optional(),
});
export const closeAbsenceInput = z.object({ id: z.string().min(1), endDate: dateTimeInput });
export type CreateAbsenceInput = z.infer<typeof createAbsenceInput>;
export type UpdateAbsenceInput = z.infer<typeof updateAbsenceInput>;
