import type { Db } from '../../shared/resources/definition.js';

/** An organization as its views need it: scalars, the named references and the addresses. */
export interface OrganizationRow {
  id: string;
  name: string;
  cocCode: string | null;
  vatNumber: string | null;
  email: string | null;
  phone: string | null;
  url: string | null;
  note: string | null;
  linkedinUrl: string | null;
  hasDifferentPostalAddress: boolean;
  invoiceReceiver: string | null;
  allowAutocollect: boolean;
  bankAccount: string | null;
  bankBic: string | null;
  relationNumber: string | null;
  isActive: boolean;
  sendInvoiceEmailToContact: boolean;
  sendInvoiceEmailToProjectContact: boolean;
  sendInvoiceEmailToFixedEmail: boolean;
  sendInvoiceEmailToCc: boolean;
  createdAt: Date;
  updatedAt: Date;
  relationType: { id: string; label: string; color: string | null; type: string | null } | null;
  industry: { id: string; name: string } | null;
  organizationSize: { id: string; name: string } | null;
  addresses: OrganizationAddressRow[];
}

export interface OrganizationAddressRow {
  id: string;
  kind: 'visiting' | 'postal';
  type: string | null;
  line1: string | null;
  line2: string | null;
  postalCode: string | null;
  province: string | null;
  locality: string | null;
  countryCode: string | null;
  countryId: string | null;
}

/*
 * Pages of organizations are the busiest read of the service, so they load in
 * one SQL query that builds the nested objects in PostgreSQL; Prisma's generic
 * result mapping cost more than the query itself (see bench/organization-list).
 */
const SQL = `
SELECT o.id, o.name, o.coc_code AS "cocCode", o.vat_number AS "vatNumber", o.email, o.phone, o.url, o.note,
       o.linkedin_url AS "linkedinUrl", o.has_different_postal_address AS "hasDifferentPostalAddress",
       o.invoice_receiver AS "invoiceReceiver", o.allow_autocollect AS "allowAutocollect",
       o.bank_account AS "bankAccount", o.bank_bic AS "bankBic", o.relation_number AS "relationNumber",
       o.is_active AS "isActive",
       o.send_invoice_email_to_contact AS "sendInvoiceEmailToContact",
       o.send_invoice_email_to_project_contact AS "sendInvoiceEmailToProjectContact",
       o.send_invoice_email_to_fixed_email AS "sendInvoiceEmailToFixedEmail",
       o.send_invoice_email_to_cc AS "sendInvoiceEmailToCc",
       o.created_at AS "createdAt", o.updated_at AS "updatedAt",
       CASE WHEN rt.id IS NULL THEN NULL
            ELSE json_build_object('id', rt.id, 'label', rt.label, 'color', rt.color, 'type', rt.type) END AS "relationType",
       CASE WHEN i.id IS NULL THEN NULL ELSE json_build_object('id', i.id, 'name', i.name) END AS "industry",
       CASE WHEN s.id IS NULL THEN NULL ELSE json_build_object('id', s.id, 'name', s.name) END AS "organizationSize",
       COALESCE((SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'type', a.type, 'line1', a.line_1,
                   'line2', a.line_2, 'postalCode', a.postal_code, 'province', a.province, 'locality', a.locality,
                   'countryCode', a.country_code, 'countryId', a.country_id))
                 FROM organization_address a WHERE a.organization_id = o.id), '[]'::json) AS addresses
FROM organization o
LEFT JOIN relation_type rt ON rt.id = o.relation_type_id
LEFT JOIN industry i ON i.id = o.industry_id
LEFT JOIN organization_size s ON s.id = o.organization_size_id
WHERE o.id = ANY($1::text[]) AND o.environment_id = $2`;

export async function loadOrganizations(db: Db, environmentId: string, ids: string[]): Promise<OrganizationRow[]> {
  return db.$queryRawUnsafe<OrganizationRow[]>(SQL, ids, environmentId);
}
