import { SCOPED_ENVIRONMENT, type Models } from '@bo/db';
import {
  type CustomFieldValueView,
  deleteCustomFieldValues,
  loadCustomFields,
  writeCustomFields,
} from '../../customfields/index.js';
import { employeeSimpleV2 } from '../../hrm/employee/employee.resource.js';
import { BusinessRuleError } from '../../shared/errors.js';
import { v2Date, v2DateTime, v3DateTime } from '../../shared/format.js';
import { newEntityId } from '../../shared/ids.js';
import { num } from '../../shared/numbers.js';
import { assertReferencesExist } from '../../shared/references.js';
import type { Db, ResourceDefinition, WriteContext } from '../../shared/resources/definition.js';
import { budgetV2, serviceBudget, sumBudgets } from '../service/budget.js';
import { projectPlanningBudget, planningBudgetSchema } from '../service/planning-budget.js';
import { projectServiceInclude, type ProjectServiceRow } from '../service/project-service.row.js';
import { type CreateProjectInput, createProjectSchema, type UpdateProjectInput, updateProjectSchema } from './project.schema.js';
import { projectSql } from './project.sql.js';
import type { ProjectOutputShape } from './project.v3.schema.js';

const include = {
  projectStatus: true,
  projectManager: true,
  employees: { include: { employee: true }, orderBy: { createdAt: 'asc' } },
  services: { include: projectServiceInclude, orderBy: { createdAt: 'asc' } },
} as const;

type ProjectBase = Models.ProjectModel & {
  projectStatus: Models.ProjectStatusModel | null;
  projectManager: Models.EmployeeModel | null;
  employees: (Models.ProjectEmployeeModel & { employee: Models.EmployeeModel })[];
  services: ProjectServiceRow[];
};

export type ProjectRow = ProjectBase & { customFields: CustomFieldValueView[] };

/** A page of projects with their services and custom fields, in a fixed number of queries. */
export async function loadProjects(db: Db, ids: string[], environmentId: string): Promise<ProjectRow[]> {
  const [rows, customFields] = await Promise.all([
    db.project.findMany({ where: { id: { in: ids } }, include }) as Promise<ProjectBase[]>,
    loadCustomFields(db, environmentId, 'project', ids),
  ]);
  return rows.map((r) => ({ ...r, customFields: customFields.get(r.id) ?? [] }));
}

const projectBudget = (p: ProjectRow) => sumBudgets(p.services.map(serviceBudget));

/** v2 read shape (reference: GetProject). */
export function projectV2(p: ProjectRow): Record<string, unknown> {
  return {
    id: p.id,
    name: p.name,
    project_number: p.projectNumber,
    phase: p.phase,
    billable: p.billable,
    project_manager: p.projectManager ? employeeSimpleV2(p.projectManager) : null,
    project_status: p.projectStatus
      ? { id: p.projectStatus.id, label: p.projectStatus.label, color: p.projectStatus.color }
      : null,
    hours_rate_type: null,
    abnormal_address: false,
    abnormal_person_id: null,
    abnormal_organization_id: null,
    abnormal_contact_id: null,
    organization: p.organizationId ? { id: p.organizationId } : null,
    person: p.personId ? { id: p.personId } : null,
    separate_invoice_recipient: null,
    my_organization_profile: p.myOrganizationProfileId ? { id: p.myOrganizationProfileId } : null,
    divergent_payment_term: null,
    employees: p.employees.map((e) => employeeSimpleV2(e.employee)),
    teams: [],
    budget: budgetV2(projectBudget(p)),
    custom_fields: p.customFields,
    is_reverse_billing: false,
    is_invoice_approval: false,
    copied_from_project: null,
    my_organization_profile_id: p.myOrganizationProfileId,
    person_id: p.personId,
    organization_id: p.organizationId,
    contact_id: p.contactId,
    can_register_mileage: p.canRegisterMileage,
    note: p.note,
    start_date: v2Date(p.startDate),
    end_date: v2Date(p.endDate),
    invoice_reference: p.invoiceReference,
    has_services: p.services.length > 0,
    simplicate_url: null,
    created_at: v2DateTime(p.createdAt),
    updated_at: v2DateTime(p.updatedAt),
  };
}

const d3 = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

export function projectV3(p: ProjectRow): ProjectOutputShape {
  return {
    id: p.id,
    name: p.name,
    projectNumber: p.projectNumber,
    phase: p.phase as 'acquisition' | 'execution',
    billable: p.billable,
    organizationId: p.organizationId,
    personId: p.personId,
    contactId: p.contactId,
    projectManager: p.projectManager ? { id: p.projectManager.id, name: p.projectManager.name } : null,
    projectStatus: p.projectStatus
      ? { id: p.projectStatus.id, label: p.projectStatus.label, color: p.projectStatus.color, isClosed: p.projectStatus.isClosed }
      : null,
    note: p.note,
    startDate: d3(p.startDate),
    endDate: d3(p.endDate),
    invoiceReference: p.invoiceReference,
    canRegisterMileage: p.canRegisterMileage,
    employees: p.employees.map((e) => ({ id: e.id, employeeId: e.employeeId, name: e.employee.name, tariff: num(e.tariff) })),
    services: p.services.map((s) => ({
      id: s.id,
      name: s.name,
      kind: s.kind as 'invoiceable' | 'acquisition' | 'advance',
      status: s.status as 'open' | 'invoiced',
    })),
    budget: projectBudget(p),
    customFields: p.customFields.map((f) => ({ name: f.name, value: f.value })),
    createdAt: v3DateTime(p.createdAt) as string,
    updatedAt: v3DateTime(p.updatedAt) as string,
  };
}

async function columns({ ctx, tx }: WriteContext, input: UpdateProjectInput) {
  await assertReferencesExist(tx, ctx.principal.environmentId, [
    { path: 'organization_id', table: 'organization', id: input.organization_id },
    { path: 'person_id', table: 'person', id: input.person_id },
    { path: 'project_manager_id', table: 'employee', id: input.project_manager_id },
    { path: 'project_status_id', table: 'project_status', id: input.project_status_id },
  ]);
  return {
    name: input.name,
    projectNumber: input.project_number,
    organizationId: input.organization_id,
    personId: input.person_id,
    contactId: input.contact_id,
    myOrganizationProfileId: input.my_organization_profile_id,
    projectManagerId: input.project_manager_id,
    projectStatusId: input.project_status_id,
    billable: input.billable,
    canRegisterMileage: input.can_register_mileage,
    note: input.note,
    startDate: input.start_date,
    endDate: input.end_date,
    invoiceReference: input.invoice_reference,
    phase: input.phase,
  };
}

async function createProject(w: WriteContext, input: CreateProjectInput): Promise<string> {
  const data = await columns(w, input);
  const id = newEntityId('project');
  // a new project without a status starts in the environment's first (open) status
  const status = input.project_status_id
    ? null
    : await w.tx.projectStatus.findFirst({ where: { isClosed: false }, orderBy: { position: 'asc' } });
  await w.tx.project.create({
    data: {
      ...data,
      projectStatusId: data.projectStatusId ?? status?.id ?? null,
      name: input.name,
      id,
      environmentId: SCOPED_ENVIRONMENT,
    },
  });
  await writeCustomFields(w.tx, 'project', id, input.custom_fields, 'create');
  return id;
}

async function updateProject(w: WriteContext, id: string, input: UpdateProjectInput): Promise<void> {
  const current = await w.tx.project.findUniqueOrThrow({ where: { id }, include: { _count: { select: { services: true } } } });
  // contract 2025-04: billable of a project with services cannot change; its services must be removed first
  if (input.billable !== undefined && input.billable !== current.billable && current._count.services > 0) {
    throw new BusinessRuleError(
      `billable of project ${id} cannot change while it has ${current._count.services} service(s); remove the services first`,
    );
  }
  await w.tx.project.update({ where: { id }, data: { ...(await columns(w, input)), updatedAt: w.now } });
  await writeCustomFields(w.tx, 'project', id, input.custom_fields, 'update');
}

/** Custom-field values are keyed by entity id, not by a foreign key: they go with the project. */
async function deleteProject(w: WriteContext, id: string): Promise<void> {
  await deleteCustomFieldValues(w.tx, id);
  await w.tx.project.delete({ where: { id } });
}

export const projectResource: ResourceDefinition<ProjectRow, CreateProjectInput, UpdateProjectInput> = {
  name: 'projects/project',
  entityType: 'project',
  module: 'projects',
  sql: projectSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: loadProjects,
  views: { v2: projectV2, v3: projectV3 },
  create: { schema: createProjectSchema, run: createProject },
  update: { schema: updateProjectSchema, run: updateProject },
  remove: deleteProject,
  actions: [
    {
      name: 'planningBudget',
      method: 'GET',
      schema: planningBudgetSchema,
      run: (ctx, id, input) => projectPlanningBudget(ctx, id, input as Parameters<typeof projectPlanningBudget>[2]),
    },
  ],
};
