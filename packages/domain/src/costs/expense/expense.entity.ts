import { z } from 'zod';
import { document } from '../../documents/document.entity.js';
import { employee } from '../../hrm/employee/employee.entity.js';
import { project } from '../../projects/project/project.entity.js';
import { projectReference } from '../../projects/project/project.shapes.js';
import { projectService } from '../../projects/service/project-service.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { costType, costTypeShape } from '../coststype/coststype.entity.js';
import { targets } from '../../shared/entity/targets.js';

/** Costs an employee booked on a project service with a cost type of the service, with its attachments. */
export const expense = defineEntity({
  type: 'expense',
  table: 'expense',
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
    /** the project of the service */
    project: f.ref((): TargetEntity => project, projectReference, { column: 'project_id', restricted: true, writable: false }),
    projectService: f.ref(
      (): TargetEntity => projectService,
      z.object({ id: z.string(), name: z.string(), startDate: z.string().nullable(), endDate: z.string().nullable() }),
      { column: 'project_service_id', restricted: true },
    ),
    costType: f.ref((): TargetEntity => costType, costTypeShape, { column: 'cost_type_id', restricted: true }),
    startDate: f.date(),
    amount: f.decimal(),
    tariff: f.decimal(),
    purchasePrice: f.decimal(),
    billable: f.boolean(),
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
    /** documents from the upload flow (2021) */
    attachments: f.many((): TargetEntity => document, z.object({ id: z.string(), title: z.string(), fileName: z.string() }), {
      remote: 'expense_id',
      through: { table: 'expense_attachment', targetColumn: 'document_id' },
      restricted: true,
    }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Expense = z.infer<typeof expense.schema>;
