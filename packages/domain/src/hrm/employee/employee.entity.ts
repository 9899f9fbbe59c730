import { z } from 'zod';
import { defineEntity, f } from '../../shared/entity/index.js';

/** An employee of the environment: HR data, guarded by the hrm right. */
export const employee = defineEntity({
  type: 'employee',
  table: 'employee',
  module: 'hrm',
  nameField: 'name',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: {
    id: f.id(),
    personId: f.string(),
    name: f.requiredString(),
    function: f.string(),
    /** active or inactive */
    employmentStatus: f.requiredString(),
    workEmail: f.string(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

/** How other modules embed an employee; without the hrm right they see only `{id, name}`. */
export const employeeReference = z.object({
  id: z.string(),
  personId: z.string().nullable(),
  name: z.string(),
  function: z.string().nullable(),
  employmentStatus: z.string(),
  workEmail: z.string().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

export type Employee = z.infer<typeof employee.schema>;
