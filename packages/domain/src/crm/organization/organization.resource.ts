import { v2DateTime, v3DateTime } from '../../shared/format.js';
import type { ResourceDefinition } from '../../shared/resources/definition.js';
import { employeeView, interestView } from '../reference/reference.views.js';
import { createOrganization } from './create-organization.js';
import { deleteOrganization } from './delete-organization.js';
import {
  loadOrganizationPage,
  loadOrganizations,
  type OrganizationAddressRow,
  type OrganizationRow,
} from './organization.load.js';

export type { OrganizationRow };
import {
  type CreateOrganizationInput,
  createOrganizationSchema,
  type UpdateOrganizationInput,
  updateOrganizationSchema,
} from './organization.schema.js';
import { organizationSql } from './organization.sql.js';
import { updateOrganization } from './update-organization.js';

type DebtorSettings = Partial<{
  provision_method: string | null;
  provision_contactperson_id: string | null;
  send_email_email: string | null;
  cc: string[];
  attention_to: string | null;
  attention_to_person_id: string | null;
  attention_to_fixed: string | null;
  autocollect: boolean;
  reminders: boolean;
  send_email_type: string | null;
  autosend_subscription_invoice: boolean;
}>;

/** reference: GetDebtor */
function debtorView(o: OrganizationRow) {
  const d = (o.debtorSettings ?? {}) as DebtorSettings;
  return {
    payment_term: null,
    provision_method: d.provision_method ?? null,
    send_invoice_email_to_contact: o.sendInvoiceEmailToContact,
    provision_contactperson_id: d.provision_contactperson_id ?? null,
    send_invoice_email_to_project_contact: o.sendInvoiceEmailToProjectContact,
    send_invoice_email_to_fixed_email: o.sendInvoiceEmailToFixedEmail,
    send_email_email: d.send_email_email ?? null,
    send_invoice_email_to_cc: o.sendInvoiceEmailToCc,
    cc: d.cc ?? [],
    attention_to: d.attention_to ?? null,
    attention_to_person_id: d.attention_to_person_id ?? null,
    attention_to_fixed: d.attention_to_fixed ?? null,
    autocollect: d.autocollect ?? o.allowAutocollect,
    reminders: d.reminders ?? true,
    send_email_type: d.send_email_type ?? null,
    autosend_subscription_invoice: d.autosend_subscription_invoice ?? false,
    invoicetemplate_id: null,
  };
}

function v2Address(a: OrganizationAddressRow | undefined) {
  if (!a) return null;
  return {
    id: a.id,
    country: null,
    type: a.type,
    line_1: a.line1,
    line_2: a.line2,
    postal_code: a.postalCode,
    province: a.province,
    locality: a.locality,
    country_code: a.countryCode,
    country_id: a.countryId,
  };
}

function v3Address(a: OrganizationAddressRow | undefined) {
  if (!a) return null;
  return {
    type: a.type,
    line1: a.line1,
    line2: a.line2,
    postalCode: a.postalCode,
    province: a.province,
    locality: a.locality,
    countryCode: a.countryCode,
  };
}

/** v2 read shape (reference: GetOrganization); every field present, null when empty. */
export function organizationV2(o: OrganizationRow): Record<string, unknown> {
  const visiting = o.addresses.find((a) => a.kind === 'visiting');
  const postal = o.addresses.find((a) => a.kind === 'postal');
  return {
    id: o.id,
    name: o.name,
    coc_code: o.cocCode,
    vat_number: o.vatNumber,
    email: o.email,
    phone: o.phone,
    url: o.url,
    note: o.note,
    linkedin_url: o.linkedinUrl,
    has_different_postal_address: o.hasDifferentPostalAddress,
    visiting_address: v2Address(visiting),
    postal_address: v2Address(postal),
    relation_type: o.relationType
      ? { id: o.relationType.id, label: o.relationType.label, color: o.relationType.color, type: o.relationType.type }
      : null,
    relation_manager: o.relationManager ? employeeView(o.relationManager) : null,
    customer_group: null,
    teams: [],
    debtor: debtorView(o),
    organizationsize: o.organizationSize ? { id: o.organizationSize.id, name: o.organizationSize.name } : null,
    industry: o.industry ? { id: o.industry.id, name: o.industry.name } : null,
    linked_persons_contacts: o.contacts.map((c) => ({
      id: c.id,
      person_id: c.personId,
      is_active: c.isActive,
      work_function: c.workFunction,
      work_email: c.workEmail,
      work_phone: c.workPhone,
      work_mobile: c.workMobile,
    })),
    interests: o.interests.map(interestView),
    accountancy: null,
    custom_fields: o.customFields,
    sbi_codes: [],
    invoice_receiver: o.invoiceReceiver,
    allow_autocollect: o.allowAutocollect,
    bank_account: o.bankAccount,
    bank_bic: o.bankBic,
    relation_number: o.relationNumber,
    is_active: o.isActive,
    send_invoice_email_to_contact: o.sendInvoiceEmailToContact,
    send_invoice_email_to_project_contact: o.sendInvoiceEmailToProjectContact,
    send_invoice_email_to_fixed_email: o.sendInvoiceEmailToFixedEmail,
    send_invoice_email_to_cc: o.sendInvoiceEmailToCc,
    simplicate_url: null,
    created_at: v2DateTime(o.createdAt),
    updated_at: v2DateTime(o.updatedAt),
  };
}

/** v3 read shape (our design, camelCase). */
export function organizationV3(o: OrganizationRow): Record<string, unknown> {
  return {
    id: o.id,
    name: o.name,
    cocCode: o.cocCode,
    vatNumber: o.vatNumber,
    email: o.email,
    phone: o.phone,
    url: o.url,
    note: o.note,
    linkedinUrl: o.linkedinUrl,
    relationNumber: o.relationNumber,
    isActive: o.isActive,
    relationType: o.relationType ? { id: o.relationType.id, label: o.relationType.label } : null,
    industry: o.industry ? { id: o.industry.id, name: o.industry.name } : null,
    organizationSize: o.organizationSize ? { id: o.organizationSize.id, name: o.organizationSize.name } : null,
    visitingAddress: v3Address(o.addresses.find((a) => a.kind === 'visiting')),
    postalAddress: v3Address(o.addresses.find((a) => a.kind === 'postal')),
    sendInvoiceEmailToContact: o.sendInvoiceEmailToContact,
    sendInvoiceEmailToProjectContact: o.sendInvoiceEmailToProjectContact,
    sendInvoiceEmailToFixedEmail: o.sendInvoiceEmailToFixedEmail,
    sendInvoiceEmailToCc: o.sendInvoiceEmailToCc,
    createdAt: v3DateTime(o.createdAt),
    updatedAt: v3DateTime(o.updatedAt),
  };
}

export const organizationResource: ResourceDefinition<OrganizationRow, CreateOrganizationInput, UpdateOrganizationInput> = {
  name: 'crm/organization',
  entityType: 'organization',
  module: 'crm',
  sql: organizationSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: loadOrganizations,
  loadPage: loadOrganizationPage,
  views: { v2: organizationV2, v3: organizationV3 },
  create: { schema: createOrganizationSchema, run: createOrganization },
  update: { schema: updateOrganizationSchema, run: updateOrganization },
  remove: deleteOrganization,
};
