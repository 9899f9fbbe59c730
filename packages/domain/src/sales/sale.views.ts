import { employeeSimpleV2 } from '../hrm/employee/employee.resource.js';
import { v2Date, v2DateTime, v3DateTime } from '../shared/format.js';
import { num } from '../shared/numbers.js';
import type { LinkedProjectRow } from './linked-projects.load.js';
import type { SaleRow } from './sale.load.js';

/**
 * One entry of `linked_projects` (contract 2025-12, 2026-01, 2026-02). The
 * contract writes created_at as "YYYY-MM-DD HH-MM-SS"; we render it like every
 * other v2 date-time, "YYYY-MM-DD HH:MM:SS", which the contract's own query
 * rules name as the v2 format: one parser for clients, and the value can be fed
 * back into a `q[created_at][ge]` filter unchanged.
 */
export function linkedProjectV2(p: LinkedProjectRow) {
  return {
    id: p.id,
    name: p.name,
    project_number: p.project_number,
    created_at: v2DateTime(p.created_at),
    project_status: p.status_id ? { id: p.status_id, label: p.status_label, color: p.status_color } : null,
    has_services: p.has_services,
    // a project still in acquisition waits for the sale's approval (project.acquisition.approve)
    is_pending_for_sale_approval: p.phase === 'acquisition',
    has_acquisition_service: p.has_acquisition_service,
  };
}

/**
 * v2 read shape (reference: GetSales): every field present, null where this
 * service keeps no data (progress, source, status, reason, teams, …).
 * Our additions: divergent_payment_term_id and linked_projects.
 */
export function saleV2(s: SaleRow): Record<string, unknown> {
  return {
    id: s.id,
    responsible_employee: s.responsibleEmployee ? employeeSimpleV2(s.responsibleEmployee) : null,
    person: s.person ? { id: s.person.id, full_name: s.person.fullName, relation_number: s.person.relationNumber } : null,
    organization: s.organization
      ? { id: s.organization.id, name: s.organization.name, relation_number: s.organization.relationNumber }
      : null,
    progress: null,
    source: null,
    status: null,
    separate_invoice_recipient: null,
    teams: [],
    custom_fields: s.customFields,
    created_at: v2DateTime(s.createdAt),
    updated_at: v2DateTime(s.updatedAt),
    status_updated_at: null,
    simplicate_url: null,
    linked_project: null,
    my_organization_profile_id: s.myOrganizationProfileId,
    organization_id: s.organizationId,
    person_id: s.personId,
    contact_id: s.contactId,
    reason: null,
    subject: s.subject,
    start_date: v2Date(s.startDate),
    expected_closing_date: v2Date(s.expectedClosingDate),
    expected_revenue: num(s.expectedRevenue),
    note: s.note,
    chance_to_score: s.chanceToScore,
    lost_to_competitor: null,
    divergent_payment_term_id: s.divergentPaymentTermId,
    linked_projects: s.linkedProjects.map(linkedProjectV2),
  };
}

const d3 = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/** v3 shape (our design, camelCase); what sale events carry until v3 has sale endpoints. */
export function saleV3(s: SaleRow): Record<string, unknown> {
  return {
    id: s.id,
    subject: s.subject,
    organizationId: s.organizationId,
    personId: s.personId,
    contactId: s.contactId,
    myOrganizationProfileId: s.myOrganizationProfileId,
    responsibleEmployeeId: s.responsibleEmployeeId,
    startDate: d3(s.startDate),
    expectedClosingDate: d3(s.expectedClosingDate),
    expectedRevenue: num(s.expectedRevenue),
    chanceToScore: s.chanceToScore,
    note: s.note,
    divergentPaymentTermId: s.divergentPaymentTermId,
    linkedProjectIds: s.linkedProjects.map((p) => p.id),
    customFields: s.customFields.map((f) => ({ name: f.name, value: f.value })),
    createdAt: v3DateTime(s.createdAt),
    updatedAt: v3DateTime(s.updatedAt),
  };
}
