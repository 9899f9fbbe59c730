import { z } from 'zod';
import { dateInput, money } from '../../shared/numbers.js';

const common = {
  employees: z
    .array(z.object({ id: z.string().min(1) }))
    .max(200)
    .optional(),
  statusId: z.string().min(1).nullable().optional(),
  name: z.string().max(255).nullable().optional(),
  description: z.string().max(10_000).nullable().optional(),
  useSpread: z.boolean().optional(),
  hoursType: z.enum(['per_week', 'total']).optional(),
  hours: money.nullable().optional(),
};

export const createAssignmentInput = z.object({
  projectHourTypeId: z.string().min(1),
  startDate: dateInput.nullable().optional(),
  endDate: dateInput.nullable().optional(),
  ...common,
});

/** The period of an assignment is set when it is created (contract, 2021): an update naming it is refused, not half-applied. */
const fixedPeriod = z
  .unknown()
  .optional()
  .refine((v) => v === undefined, 'The period of an assignment is set when it is created; it cannot be changed.');
export const updateAssignmentInput = z.object({ ...common, startDate: fixedPeriod, endDate: fixedPeriod });
export type CreateAssignmentInput = z.infer<typeof createAssignmentInput>;
export type UpdateAssignmentInput = z.infer<typeof updateAssignmentInput>;
