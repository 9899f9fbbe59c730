import { z } from 'zod';
import { employee } from '../../hrm/employee/employee.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { targets } from '../../shared/entity/targets.js';

/** An employee on a project, with the tariff the project bills the employee at. */
export const projectEmployee = defineEntity({
  type: 'projectemployee',
  table: 'project_employee',
  module: 'projects',
  fields: {
    id: f.id(),
    projectId: f.requiredString({ references: () => targets.project }),
    employeeId: f.requiredString({ references: () => targets.employee }),
    /** the employee as projects show it; only `{id, name}` without the hrm right */
    employee: f.ref(
      (): TargetEntity => employee,
      z.object({ id: z.string(), personId: z.string().nullable(), name: z.string() }),
      {
        column: 'employee_id',
        writable: false,
        restricted: true,
      },
    ),
    tariff: f.decimal(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type ProjectEmployee = z.infer<typeof projectEmployee.schema>;

/** How a project embeds its employees. */
export const employeeOfProjectShape = z.object({
  id: z.string(),
  employeeId: z.string(),
  employee: z.object({ id: z.string(), personId: z.string().nullable(), name: z.string() }).nullable(),
  tariff: z.number().nullable(),
});
