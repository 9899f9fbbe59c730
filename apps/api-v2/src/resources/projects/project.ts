import { customFieldValuesV2 } from '../customfields/values.js';
import { createProjectInput, updateProjectInput } from '@bo/domain/projects/project/project.schema';
import { type Project, project } from '@bo/domain/projects/project/project.entity';
import { projectBudget } from '@bo/domain/projects/service/budget';
import { employeeSimpleV2, organizationSimpleV2, personSimpleV2 } from '../shared/simple.js';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Action, v2Resource } from '../v2-resource.js';
import { budgetV2 } from './budget.js';
import { planningBudgetV2 } from './planning-budget.js';

const names = v2Names();

/** projects/project (reference: GetProject); the reference's fields this service does not keep are constants. */
export const projectV2 = v2Resource<Project>({
  path: 'projects/project',
  entity: project,
  inputs: { create: createProjectInput, update: updateProjectInput, remove: true },
  procedures: (c) => c.projects.project,
  names,
  read: (p) => ({
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
    organization: organizationSimpleV2(p.organization),
    person: personSimpleV2(p.person),
    separate_invoice_recipient: null,
    my_organization_profile: p.myOrganizationProfileId ? { id: p.myOrganizationProfileId } : null,
    divergent_payment_term: null,
    employees: p.employees.map((e) => (e.employee ? employeeSimpleV2(e.employee) : null)),
    teams: [],
    budget: budgetV2(projectBudget(p)),
    invoiced_amount: Number(p.invoicedAmount),
    custom_fields: customFieldValuesV2(p.customFields),
    is_reverse_billing: false,
    is_invoice_approval: false,
    copied_from_project: null,
    my_organization_profile_id: p.myOrganizationProfileId,
    person_id: p.person?.id ?? null,
    organization_id: p.organization?.id ?? null,
    contact_id: p.contactId,
    can_register_mileage: p.canRegisterMileage,
    note: p.note,
    start_date: p.startDate,
    end_date: p.endDate,
    invoice_reference: p.invoiceReference,
    has_services: p.services.length > 0,
    simplicate_url: null,
    created_at: v2DateTime(p.createdAt),
    updated_at: v2DateTime(p.updatedAt),
  }),
  actions: [
    v2Action({
      name: 'planningBudget',
      method: 'GET',
      call: (c) => c.projects.project.planningBudget,
      read: (b, id) => planningBudgetV2('project_id', b, id),
    }),
  ],
});
