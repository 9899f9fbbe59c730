import { z } from 'zod';

/** Write shapes of an employee, in domain terms. */
const fields = {
  personId: z.string().min(1).nullable().optional(),
  function: z.string().max(255).nullable().optional(),
  workEmail: z.string().max(255).nullable().optional(),
  employmentStatus: z.enum(['active', 'inactive']).optional(),
};
export const createEmployeeInput = z.object({ name: z.string().trim().min(1).max(255), ...fields });
export const updateEmployeeInput = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
export type CreateEmployeeInput = z.infer<typeof createEmployeeInput>;
export type UpdateEmployeeInput = z.infer<typeof updateEmployeeInput>;
