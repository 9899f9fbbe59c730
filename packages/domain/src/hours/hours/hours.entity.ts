import { z } from 'zod';
import { customFieldValueSchema } from '../../customfields/custom-field-value.schema.js';
import { employee } from '../../hrm/employee/employee.entity.js';
import { project } from '../../projects/project/project.entity.js';
import { projectReference } from '../../projects/project/project.shapes.js';
import { projectService } from '../../projects/service/project-service.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { hourType, hourTypeShape } from '../hourstype/hourstype.entity.js';
import { targets } from '../../shared/entity/targets.js';

/** The approval states of an hour registration (and of an employee's week). */
export const APPROVAL_STATES = ['open', 'submitted', 'approved', 'rejected'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** An hour the caller may no longer change or delete: invoiced, or in a submitted or approved week. */
export const lockedSql = (a: string) => `(${a}.invoice_id IS NOT NULL OR ${a}.approval_status IN ('submitted', 'approved'))`;

/** How an hour embeds its service: the registration timeframe is its period (contract 2025-07). */
export const hoursServiceShape = z.object({
  id: z.string(),
  name: z.string(),
  writeHoursStartDate: z.string().nullable(),
  writeHoursEndDate: z.string().nullable(),
  defaultServiceId: z.string().nullable(),
  revenueGroupId: z.string().nullable(),
});

const approvalStatusShape = z.object({ id: z.string(), key: z.string(), label: z.string() }).nullable();

/** Hours an employee worked on one day, on an hour type of a project service. */
export const hours = defineEntity({
  type: 'hours',
  table: 'hour_registration',
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
    projectService: f.ref((): TargetEntity => projectService, hoursServiceShape, {
      column: 'project_service_id',
      restricted: true,
    }),
    hourType: f.ref((): TargetEntity => hourType, hourTypeShape, { column: 'hour_type_id' }),
    startDate: f.date(),
    durationMinutes: f.requiredInteger(),
    billable: f.boolean(),
    description: f.string(),
    /** open, submitted, approved or rejected */
    approvalStatus: f.requiredString(),
    /** the approval status row of this environment for the state (hours/approvalstatus) */
    approvalStatusRow: f.computed(
      'json',
      approvalStatusShape,
      (a) =>
        `SELECT json_build_object('id', s.id, 'key', s.key, 'label', s.label) FROM approval_status s
          WHERE s.environment_id = ${a}.environment_id AND s.key = ${a}.approval_status`,
    ),
    invoiceId: f.string({ references: () => targets.invoice, writable: false }),
    tariff: f.decimal(),
    source: f.string(),
    /** productive hours are those of a normal hour type (not leave or absence) */
    isProductive: f.computed(
      'boolean',
      z.boolean(),
      (a) => `SELECT h.type = 'normal' FROM hour_type h WHERE h.id = ${a}.hour_type_id`,
      { filter: false },
    ),
    isEditable: f.computed('boolean', z.boolean(), (a) => `NOT ${lockedSql(a)}`),
    isDeletable: f.computed('boolean', z.boolean(), (a) => `NOT ${lockedSql(a)}`),
    customFields: f.customFields('hours', customFieldValueSchema),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Hours = z.infer<typeof hours.schema>;
