import { SCOPED_ENVIRONMENT, type Models, type SqlModel } from '@bo/db';
import { z } from 'zod';
import { employeeSimpleV2 } from '../../hrm/employee/employee.resource.js';
import { hourTypeV2 } from '../../hours/hourstype/hourstype.resource.js';
import { ValidationError } from '../../shared/errors.js';
import { v2Date, v2DateTime, v3DateTime } from '../../shared/format.js';
import { newEntityId } from '../../shared/ids.js';
import { dateInput, money, num } from '../../shared/numbers.js';
import { assertReferencesExist } from '../../shared/references.js';
import type { Db, ResourceDefinition, WriteContext } from '../../shared/resources/definition.js';

export const assignmentSql: SqlModel = {
  table: 'assignment',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    description: { column: 'description', type: 'string' },
    project_id: { column: 'project_id', type: 'id' },
    projectservice_id: { column: 'project_service_id', type: 'id' },
    projecthourstype_id: { column: 'project_hour_type_id', type: 'id' },
    start_date: { column: 'start_date', type: 'date' },
    end_date: { column: 'end_date', type: 'date' },
    hours_type: { column: 'hours_type', type: 'string' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

const include = {
  project: true,
  projectService: true,
  projectHourType: { include: { hourType: true } },
  employees: { include: { employee: true } },
} as const;

type AssignmentRow = Models.AssignmentModel & {
  project: Models.ProjectModel;
  projectService: Models.ProjectServiceModel | null;
  projectHourType: Models.ProjectServiceHourTypeModel & { hourType: Models.HourTypeModel };
  employees: (Models.AssignmentEmployeeModel & { employee: Models.EmployeeModel })[];
};

const employees = z.array(z.object({ id: z.string().min(1) })).max(200);
const common = {
  employees: employees.optional(),
  status_id: z.string().min(1).nullable().optional(),
  name: z.string().max(255).nullable().optional(),
  description: z.string().max(10_000).nullable().optional(),
  use_spread: z.boolean().optional(),
  hours_type: z.enum(['per_week', 'total']).optional(),
  hours: money.nullable().optional(),
};
export const postAssignmentSchema = z.object({
  projecthourstype_id: z.string().min(1),
  start_date: dateInput.nullable().optional(),
  end_date: dateInput.nullable().optional(),
  ...common,
});
/** PutAssignment has no period (contract, 2021): a PUT naming start_date or end_date is refused, not half-applied. */
const notOnPut = (field: string) =>
  z
    .unknown()
    .optional()
    .refine((v) => v === undefined, `${field} cannot be changed on PUT; the period of an assignment is set when it is created.`);
export const putAssignmentSchema = z.object({ ...common, start_date: notOnPut('start_date'), end_date: notOnPut('end_date') });
type PostInput = z.infer<typeof postAssignmentSchema>;
type PutInput = z.infer<typeof putAssignmentSchema>;

async function checkReferences({ ctx, tx }: WriteContext, input: { employees?: { id: string }[]; projecthourstype_id?: string }) {
  await assertReferencesExist(tx, ctx.principal.environmentId, [
    { path: 'projecthourstype_id', table: 'project_service_hour_type', id: input.projecthourstype_id },
    ...(input.employees ?? []).map((e, i) => ({ path: `employees.${i}.id`, table: 'employee', id: e.id })),
  ]);
}

async function writeEmployees(tx: Db, assignmentId: string, list: { id: string }[] | undefined) {
  if (!list) return;
  await tx.assignmentEmployee.deleteMany({ where: { assignmentId } });
  const unique = [...new Set(list.map((e) => e.id))];
  await tx.assignmentEmployee.createMany({
    data: unique.map((employeeId) => ({
      id: newEntityId('assignmentemployee'),
      environmentId: SCOPED_ENVIRONMENT,
      assignmentId,
      employeeId,
    })),
  });
}

async function createAssignment(w: WriteContext, input: PostInput): Promise<string> {
  await checkReferences(w, input);
  const line = await w.tx.projectServiceHourType.findUniqueOrThrow({
    where: { id: input.projecthourstype_id },
    include: { projectService: true },
  });
  if (input.start_date && input.end_date && input.end_date < input.start_date) {
    throw new ValidationError([{ path: 'end_date', message: 'end_date lies before start_date.', code: 'invalid_period' }]);
  }
  const id = newEntityId('assignment');
  await w.tx.assignment.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      projectId: line.projectService.projectId,
      projectServiceId: line.projectServiceId,
      projectHourTypeId: line.id,
      name: input.name ?? null,
      description: input.description ?? null,
      startDate: input.start_date ?? null,
      endDate: input.end_date ?? null,
      hoursType: input.hours_type ?? 'total',
      hours: input.hours ?? null,
      useSpread: input.use_spread ?? false,
    },
  });
  await writeEmployees(w.tx, id, input.employees);
  return id;
}

async function updateAssignment(w: WriteContext, id: string, input: PutInput): Promise<void> {
  await checkReferences(w, input);
  await w.tx.assignment.update({
    where: { id },
    data: {
      name: input.name,
      description: input.description,
      hoursType: input.hours_type,
      hours: input.hours,
      useSpread: input.use_spread,
      updatedAt: w.now,
    },
  });
  await writeEmployees(w.tx, id, input.employees);
}

export const assignmentResource: ResourceDefinition<AssignmentRow, PostInput, PutInput> = {
  name: 'projects/assignment',
  entityType: 'assignment',
  module: 'projects',
  sql: assignmentSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: (db, ids) => db.assignment.findMany({ where: { id: { in: ids } }, include }),
  views: {
    v2: (a) => ({
      id: a.id,
      name: a.name,
      description: a.description,
      start_date: v2Date(a.startDate),
      end_date: v2Date(a.endDate),
      hours_total: num(a.hours),
      hours: num(a.hours),
      hours_type: a.hoursType,
      spread: [],
      status: null,
      project: { id: a.project.id, name: a.project.name, project_number: a.project.projectNumber },
      projectservice: a.projectService
        ? {
            id: a.projectService.id,
            name: a.projectService.name,
            default_service_id: a.projectService.defaultServiceId,
            revenue_group_id: a.projectService.revenueGroupId,
            use_in_resource_planner: a.projectService.useInResourcePlanner,
          }
        : null,
      projecthourstype: {
        id: a.projectHourType.id,
        hourstype: hourTypeV2(a.projectHourType.hourType),
        color: a.projectHourType.hourType.color,
        budgeted_amount: num(a.projectHourType.budgetedAmount),
        tariff: num(a.projectHourType.tariff),
        billable: a.projectHourType.billable,
      },
      employees: a.employees.map((e) => employeeSimpleV2(e.employee)),
      spent_amount: null,
      is_planned: a.employees.length > 0,
      use_spread: a.useSpread,
      created_at: v2DateTime(a.createdAt),
      updated_at: v2DateTime(a.updatedAt),
    }),
    v3: (a) => ({
      id: a.id,
      name: a.name,
      description: a.description,
      projectId: a.projectId,
      projectServiceId: a.projectServiceId,
      projectHourTypeId: a.projectHourTypeId,
      employeeIds: a.employees.map((e) => e.employeeId),
      createdAt: v3DateTime(a.createdAt),
      updatedAt: v3DateTime(a.updatedAt),
    }),
  },
  create: { schema: postAssignmentSchema, run: createAssignment },
  update: { schema: putAssignmentSchema, run: updateAssignment },
};
