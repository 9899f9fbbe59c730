import { z } from 'zod';
import { dateInput } from '../shared/numbers.js';

/** Kilometres of one day: more than zero, and no more than anyone drives in a day. */
const distance = z.number().gt(0, 'The mileage must be more than zero.').max(5000, 'The mileage cannot exceed 5000 on one day.');

const common = {
  distance: distance.optional(),
  startDate: dateInput.optional(),
  relatedHoursId: z.string().min(1).nullable().optional(),
  source: z.enum(['schedule', 'timer', 'timesheet']).nullable().optional(),
  note: z.string().max(10_000).nullable().optional(),
};

export const createMileageInput = z.object({
  employeeId: z.string().min(1),
  projectId: z.string().min(1),
  ...common,
  distance,
  startDate: dateInput,
});
export const updateMileageInput = z.object(common);
export type CreateMileageInput = z.infer<typeof createMileageInput>;
export type UpdateMileageInput = z.infer<typeof updateMileageInput>;
