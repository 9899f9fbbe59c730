import { z } from 'zod';
import { money } from '../../shared/numbers.js';

const ref = z.object({ id: z.string().min(1) });

/** Write shapes of an employee, in domain terms. */
const fields = {
  /** links the employee to a crm person (2023-04); the name then follows the person */
  personId: z.string().min(1).nullable().optional(),
  userId: z.string().min(1).nullable().optional(),
  function: z.string().max(255).nullable().optional(),
  workEmail: z.string().max(255).nullable().optional(),
  workPhone: z.string().max(255).nullable().optional(),
  workMobile: z.string().max(255).nullable().optional(),
  bankAccount: z.string().max(255).nullable().optional(),
  hourlySalesTariff: money.nullable().optional(),
  hourlyCostTariff: money.nullable().optional(),
  /** active or inactive; the status, when given, wins */
  employmentStatus: z.enum(['active', 'inactive']).optional(),
  /** an employee status; the unemployed one only under the 2023-11 rule */
  status: ref.nullable().optional(),
  supervisor: ref.nullable().optional(),
  civilStatusId: z.string().min(1).nullable().optional(),
  employeeTypeId: z.string().min(1).nullable().optional(),
  teams: z.array(ref).max(100).optional(),
};
export const createEmployeeInput = z
  .object({ name: z.string().trim().min(1).max(255).optional(), ...fields })
  .refine((v) => v.name !== undefined || (v.personId !== undefined && v.personId !== null), {
    message: 'A name or a person_id is required',
    path: ['name'],
  });
export const updateEmployeeInput = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
export type CreateEmployeeInput = z.infer<typeof createEmployeeInput>;
export type UpdateEmployeeInput = z.infer<typeof updateEmployeeInput>;

/** employee.endEmployment: the date the employment ends, checked against the 2023-11 rule. */
export const endEmploymentInput = z.object({ id: z.string().min(1) });
