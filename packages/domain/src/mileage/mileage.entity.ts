import { z } from 'zod';
import { hours } from '../hours/hours/hours.entity.js';
import { employee } from '../hrm/employee/employee.entity.js';
import { project } from '../projects/project/project.entity.js';
import { projectReference } from '../projects/project/project.shapes.js';
import { defineEntity, f, type TargetEntity } from '../shared/entity/index.js';
import { targets } from '../shared/entity/targets.js';

/** Kilometres an employee drove for a project on a day, possibly beside the hours of that trip. */
export const mileage = defineEntity({
  type: 'mileage',
  table: 'mileage',
  module: 'hours',
  defaultSort: [
    { path: 'startDate', dir: 'asc' },
    { path: 'id', dir: 'asc' },
  ],
  fields: {
    id: f.id(),
    employee: f.ref(
      (): TargetEntity => employee,
      z.object({ id: z.string(), personId: z.string().nullable(), name: z.string() }),
      { column: 'employee_id', restricted: true },
    ),
    project: f.ref((): TargetEntity => project, projectReference, { column: 'project_id', restricted: true }),
    startDate: f.date(),
    distance: f.decimal({ column: 'mileage' }),
    tariff: f.decimal(),
    relatedHours: f.ref(
      (): TargetEntity => hours,
      z.object({ id: z.string(), durationMinutes: z.number().int(), startDate: z.string().nullable() }),
      { column: 'related_hours_id' },
    ),
    source: f.string(),
    note: f.string(),
    approvalStatus: f.requiredString(),
    approvalStatusRow: f.computed(
      'json',
      z.object({ id: z.string(), label: z.string() }).nullable(),
      (a) =>
        `SELECT json_build_object('id', s.id, 'label', s.label) FROM approval_status s
          WHERE s.environment_id = ${a}.environment_id AND s.key = ${a}.approval_status`,
    ),
    invoiceId: f.string({ references: () => targets.invoice, writable: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Mileage = z.infer<typeof mileage.schema>;
