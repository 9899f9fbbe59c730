import { z } from 'zod';

/** v3 shape of employee.list items. */
export const employeeV3Schema = z.object({
  id: z.string(),
  name: z.string(),
  personId: z.string().nullable(),
  function: z.string().nullable(),
  workEmail: z.string().nullable(),
  employmentStatus: z.enum(['active', 'inactive']),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
