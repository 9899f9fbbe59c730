import { z } from 'zod';
import { organization } from '../../crm/organization/organization.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { employee, employeeReference } from '../employee/employee.entity.js';
import { contractType, employmentType } from '../reference/hrm-lookups.entity.js';

const named = z.object({ id: z.string(), name: z.string(), blocked: z.boolean() });

/** An employment contract: its part-time percentage and yearly days off feed the leave balance. */
export const contract = defineEntity({
  type: 'contract',
  table: 'contract',
  module: 'hrm',
  defaultSort: [{ path: 'startDate', dir: 'asc' }],
  fields: {
    id: f.id(),
    employee: f.ref((): TargetEntity => employee, employeeReference, {
      column: 'employee_id',
      writable: false,
    }),
    employer: f.ref((): TargetEntity => organization, z.object({ id: z.string(), name: z.string() }), {
      column: 'employer_id',
      writable: false,
      restricted: true,
    }),
    employmentType: f.ref((): TargetEntity => employmentType, named, { column: 'employment_type_id', writable: false }),
    contractType: f.ref((): TargetEntity => contractType, named, { column: 'contract_type_id', writable: false }),
    startDate: f.date(),
    endDate: f.date(),
    salaryFulltime: f.decimal(),
    parttimePercentage: f.decimal(),
    /** days off a full year grants at full time (8 hours a day) */
    daysOff: f.decimal(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Contract = z.infer<typeof contract.schema>;
