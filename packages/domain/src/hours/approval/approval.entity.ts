import { z } from 'zod';
import { employee } from '../../hrm/employee/employee.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';

/** The approval statuses: a read-only list, one row per state (hours/approvalstatus). */
export const approvalStatus = defineEntity({
  type: 'approvalstatus',
  table: 'approval_status',
  module: 'hours',
  nameField: 'label',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    key: f.requiredString(),
    label: f.requiredString(),
    position: f.requiredInteger(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type ApprovalStatus = z.infer<typeof approvalStatus.schema>;

/** One transition of an employee's ISO week (submitted, approved, rejected, reopened), kept as history. */
export const approval = defineEntity({
  type: 'approval',
  table: 'hour_approval',
  module: 'hours',
  defaultSort: [
    { path: 'createdAt', dir: 'asc' },
    { path: 'id', dir: 'asc' },
  ],
  fields: {
    id: f.id(),
    employee: f.ref(
      (): TargetEntity => employee,
      z.object({ id: z.string(), personId: z.string().nullable(), name: z.string() }),
      { column: 'employee_id', restricted: true },
    ),
    /** the Monday of the week */
    weekStart: f.date(),
    /** submitted, approved, rejected or open (reopened) */
    status: f.requiredString(),
    approvalStatus: f.computed(
      'json',
      z.object({ id: z.string(), label: z.string() }).nullable(),
      (a) =>
        `SELECT json_build_object('id', s.id, 'label', s.label) FROM approval_status s
          WHERE s.environment_id = ${a}.environment_id AND s.key = ${a}.status`,
    ),
    /** the minutes of the employee's hours in that week (contract 2023-04) */
    durationMinutes: f.computed(
      'integer',
      z.number().int(),
      (a) =>
        `SELECT COALESCE(SUM(h.duration_minutes), 0)::int FROM hour_registration h
          WHERE h.environment_id = ${a}.environment_id AND h.employee_id = ${a}.employee_id
            AND h.start_date BETWEEN ${a}.week_start AND ${a}.week_start + 6`,
    ),
    actorId: f.string({ filter: false, sort: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Approval = z.infer<typeof approval.schema>;
