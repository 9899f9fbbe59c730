import { z } from 'zod';
import { money } from '../../shared/numbers.js';

/** Puts an employee on a project (contract, 2022-08): the employee and the project, once. */
export const createProjectEmployeeInput = z.object({
  projectId: z.string().min(1),
  employeeId: z.string().min(1),
  tariff: money.nullable().optional(),
});
export type CreateProjectEmployeeInput = z.infer<typeof createProjectEmployeeInput>;
