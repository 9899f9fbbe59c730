import { z } from 'zod';
import { dateInput, money } from '../../shared/numbers.js';

/** A contract as the domain (the tRPC router, the seed, tests) creates it; v2 only reads contracts. */
export const createContractInput = z
  .object({
    employeeId: z.string().min(1),
    employerId: z.string().min(1).nullable().optional(),
    employmentTypeId: z.string().min(1).nullable().optional(),
    contractTypeId: z.string().min(1).nullable().optional(),
    startDate: dateInput,
    endDate: dateInput.nullable().optional(),
    salaryFulltime: money.nullable().optional(),
    parttimePercentage: z.number().min(0).max(100).default(100),
    daysOff: z.number().min(0).max(366).default(0),
  })
  .refine((c) => !c.endDate || c.endDate >= c.startDate, {
    message: 'The end date lies before the start date.',
    path: ['endDate'],
  });
export type CreateContractInput = z.infer<typeof createContractInput>;
