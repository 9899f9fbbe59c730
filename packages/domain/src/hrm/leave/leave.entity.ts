import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { employee } from '../employee/employee.entity.js';
import { leaveStatus, leaveType } from '../reference/hrm-lookups.entity.js';

export const employeeSimple = z.object({ id: z.string(), personId: z.string().nullable(), name: z.string() });

/**
 * A leave entry: hours granted for a year (kind granted), or leave taken in a period
 * (kind taken). Taken leave with no status was booked directly (hours/leave, v2 writes)
 * and counts at once; requested leave counts once approved; rejected leave never.
 */
export const leave = defineEntity({
  type: 'leave',
  table: 'leave',
  module: 'hrm',
  defaultSort: [{ path: 'createdAt', dir: 'asc' }],
  fields: {
    id: f.id(),
    employee: f.ref((): TargetEntity => employee, employeeSimple, { column: 'employee_id', writable: false }),
    leaveType: f.ref(
      (): TargetEntity => leaveType,
      z.object({
        id: z.string(),
        label: z.string(),
        blocked: z.boolean(),
        color: z.string().nullable(),
        affectsBalance: z.boolean(),
      }),
      { column: 'leave_type_id', writable: false },
    ),
    /** 2025-09; null for leave booked directly (2025-10: such entries are listed too) */
    leaveStatus: f.ref((): TargetEntity => leaveStatus, z.object({ id: z.string(), key: z.string(), label: z.string() }), {
      column: 'leave_status_id',
      writable: false,
    }),
    /** granted or taken */
    kind: f.requiredString({ writable: false }),
    startDate: f.datetime(),
    endDate: f.datetime(),
    isTimeDefined: f.boolean(),
    year: f.requiredInteger(),
    hours: f.decimal(),
    description: f.string(),
    allowNegative: f.boolean(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Leave = z.infer<typeof leave.schema>;
