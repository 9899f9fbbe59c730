import { customFieldValuesV2 } from '../customfields/values.js';
import type { Sale } from '@bo/domain/sales/sale.entity';
import { employeeReferenceV2 } from '../hrm/employee-reference.js';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2RowOperation, v2Resource } from '../v2-resource.js';
import { contactSimpleV2 } from '../shared/simple.js';

const names = v2Names();

/**
 * One entry of `linked_projects` (contract 2025-12, 2026-01, 2026-02). The contract
 * writes created_at as "YYYY-MM-DD HH-MM-SS"; it is rendered like every other v2
 * date-time, "YYYY-MM-DD HH:MM:SS", which the contract's query rules name as the v2
 * format: one parser for clients, and the value can be fed back into a filter.
 */
function linkedProjectV2(link: Sale['linkedProjects'][number]): Record<string, unknown> | null {
  const p = 'project' in link ? link.project : null;
  if (!p) return null;
  return {
    id: p.id,
    name: p.name,
    project_number: p.projectNumber,
    created_at: v2DateTime(p.createdAt),
    project_status: p.projectStatus
      ? { id: p.projectStatus.id, label: p.projectStatus.label, color: p.projectStatus.color }
      : null,
    has_services: p.hasServices,
    // a project still in acquisition waits for the sale's approval (project.acquisition.approve)
    is_pending_for_sale_approval: p.phase === 'acquisition',
    has_acquisition_service: p.hasAcquisitionService,
  };
}

/** the organization or person a sale is for; `{id, name}` only when the caller has no crm right */
function organizationV2(o: Sale['organization']): Record<string, unknown> | null {
  if (!o) return null;
  return { id: o.id, name: o.name, relation_number: o.relationNumber ?? null };
}

function personV2(p: Sale['person']): Record<string, unknown> | null {
  if (!p) return null;
  const full_name = 'fullName' in p ? p.fullName : ((p as { name?: string | null }).name ?? null);
  return { id: p.id, full_name, relation_number: p.relationNumber ?? null };
}

/** v2 read shape of a sale (reference: GetSales); every field present, null where nothing is kept. */
export function saleV2(s: Sale): Record<string, unknown> {
  return {
    id: s.id,
    responsible_employee: s.responsibleEmployee ? employeeReferenceV2(s.responsibleEmployee) : null,
    person: personV2(s.person),
    organization: organizationV2(s.organization),
    progress: s.progress
      ? {
          id: s.progress.id,
          label: s.progress.label,
          color: s.progress.color,
          chance_to_score: s.progress.chanceToScore,
          position: s.progress.position,
        }
      : null,
    source: s.source ? { id: s.source.id, name: s.source.name } : null,
    status: s.status ? { id: s.status.id, label: s.status.label } : null,
    separate_invoice_recipient: null,
    teams: [],
    custom_fields: customFieldValuesV2(s.customFields),
    created_at: v2DateTime(s.createdAt),
    updated_at: v2DateTime(s.updatedAt),
    status_updated_at: v2DateTime(s.statusUpdatedAt),
    timeline_email_address: s.timelineEmailAddress,
    simplicate_url: null,
    linked_project: null,
    my_organization_profile_id: s.myOrganizationProfileId,
    organization_id: s.organization?.id ?? null,
    person_id: s.person?.id ?? null,
    contact_id: s.contactId,
    contact: contactSimpleV2(s.contact),
    reason: s.reason ? { id: s.reason.id, name: s.reason.name, blocked: s.reason.blocked } : null,
    subject: s.subject,
    start_date: s.startDate,
    expected_closing_date: s.expectedClosingDate,
    expected_revenue: s.expectedRevenue,
    note: s.note,
    chance_to_score: s.chanceToScore,
    lost_to_competitor: null,
    divergent_payment_term_id: s.divergentPaymentTermId,
    linked_projects: s.linkedProjects.map(linkedProjectV2).filter((p) => p !== null),
  };
}

/** sales/sales: CRUD, custom fields, linked projects and POST /{id}/duplicate. */
export const saleV2Resource = v2Resource<Sale>({
  path: 'sales/sales',
  procedures: (c) => c.sales.sales,
  names,
  read: saleV2,
  actions: [{ name: 'duplicate', method: 'POST', call: (c) => c.sales.sales.duplicate }],
});

/** GET sales/converttoproject/{id}: converts the sale from its accepted quote and answers the sale (GetSales). */
export const convertToProjectV2 = v2RowOperation({
  path: 'sales/converttoproject',
  method: 'GET',
  names,
  call: (c) => c.sales.sales.convertToProject,
  read: async (result: { id: string }, c) => saleV2(await c.sales.sales.get({ id: result.id })),
});
