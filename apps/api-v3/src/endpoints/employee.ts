import type { Employee } from '@bo/domain/hrm/employee/employee.entity';
import { z } from 'zod';
import { listEndpoint, type NamedSchema } from './types.js';

/** v3 shape of employee.list items. */
const EmployeeV3 = z.object({
  id: z.string(),
  name: z.string(),
  personId: z.string().nullable(),
  function: z.string().nullable(),
  workEmail: z.string().nullable(),
  employmentStatus: z.enum(['active', 'inactive']),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

const schema: NamedSchema = { name: 'Hrm.Employee', schema: EmployeeV3 };

export function employeeV3(e: Employee): z.infer<typeof EmployeeV3> {
  return {
    id: e.id,
    name: e.name,
    personId: e.personId,
    function: e.function,
    workEmail: e.workEmail,
    employmentStatus: e.employmentStatus as 'active' | 'inactive',
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export const employeeEndpoints = {
  'employee.list': listEndpoint<Employee>({
    call: (c) => c.hrm.employee.list,
    filters: { name: 'name' },
    map: employeeV3,
    doc: { summary: 'Employees, paged', response: schema, errors: [400, 403] },
  }),
};
