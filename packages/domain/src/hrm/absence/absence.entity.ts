import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { employee } from '../employee/employee.entity.js';
import { employeeSimple } from '../leave/leave.entity.js';
import { absenceType } from '../reference/hrm-lookups.entity.js';

/** An absence (sickness, …): the end date stays empty while it is ongoing (2025-01). */
export const absence = defineEntity({
  type: 'absence',
  table: 'absence',
  module: 'hrm',
  defaultSort: [{ path: 'startDate', dir: 'asc' }],
  fields: {
    id: f.id(),
    employee: f.ref((): TargetEntity => employee, employeeSimple, { column: 'employee_id', writable: false }),
    absenceType: f.ref(
      (): TargetEntity => absenceType,
      z.object({ id: z.string(), label: z.string(), blocked: z.boolean(), color: z.string().nullable() }),
      { column: 'absence_type_id', writable: false },
    ),
    startDate: f.requiredDatetime(),
    endDate: f.datetime(),
    /** true while the absence has no end date */
    absenceOngoing: f.computed('boolean', z.boolean(), (a) => `${a}.end_date IS NULL`),
    isTimeDefined: f.boolean(),
    year: f.requiredInteger(),
    hours: f.decimal(),
    description: f.string(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Absence = z.infer<typeof absence.schema>;
