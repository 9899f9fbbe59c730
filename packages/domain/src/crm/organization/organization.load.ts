import type { Models } from '@bo/db';
import { type CustomFieldValueView, loadCustomFields } from '../../customfields/index.js';
import type { Db } from '../../shared/resources/definition.js';
import { loadEmployees } from '../reference/reference.views.js';

type Named = { id: string; name: string };
export type OrganizationAddressRow = Omit<Models.OrganizationAddressModel, 'environmentId' | 'organizationId'>;
export type InterestRow = Pick<Models.InterestModel, 'id' | 'name' | 'apiName' | 'organization' | 'person'>;
export type ContactRow = Pick<
  Models.ContactPersonModel,
  'id' | 'personId' | 'isActive' | 'workFunction' | 'workEmail' | 'workPhone' | 'workMobile'
>;

/** One organization with everything its read shapes show. */
export type OrganizationRow = Omit<Models.OrganizationModel, 'environmentId'> & {
  relationType: Pick<Models.RelationTypeModel, 'id' | 'label' | 'color' | 'type'> | null;
  industry: Named | null;
  organizationSize: Named | null;
  addresses: OrganizationAddressRow[];
  interests: InterestRow[];
  /** active contact links only: inactive ones are not shown on organization reads (2024-07) */
  contacts: ContactRow[];
  customFields: CustomFieldValueView[];
  relationManager: Models.EmployeeModel | null;
};

/**
 * A page of organizations in one SQL query (the row, its reference data, addresses,
 * interests and active contacts as JSON), plus the custom fields (two queries) and
 * the relation managers (one): a fixed number of queries whatever the page size.
 */
export async function loadOrganizations(db: Db, ids: string[], environmentId: string): Promise<OrganizationRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.$queryRawUnsafe<Omit<OrganizationRow, 'customFields' | 'relationManager'>[]>(
    `SELECT o.id, o.name, o.coc_code AS "cocCode", o.vat_number AS "vatNumber", o.email, o.phone, o.url, o.note,
            o.linkedin_url AS "linkedinUrl", o.has_different_postal_address AS "hasDifferentPostalAddress",
            o.relation_type_id AS "relationTypeId", o.industry_id AS "industryId", o.organization_size_id AS "organizationSizeId",
            o.invoice_receiver AS "invoiceReceiver", o.allow_autocollect AS "allowAutocollect", o.bank_account AS "bankAccount",
            o.bank_bic AS "bankBic", o.relation_number AS "relationNumber", o.is_active AS "isActive",
            o.send_invoice_email_to_contact AS "sendInvoiceEmailToContact",
            o.send_invoice_email_to_project_contact AS "sendInvoiceEmailToProjectContact",
            o.send_invoice_email_to_fixed_email AS "sendInvoiceEmailToFixedEmail",
            o.send_invoice_email_to_cc AS "sendInvoiceEmailToCc", o.relation_manager_id AS "relationManagerId",
            o.debtor_settings AS "debtorSettings", o.created_at AS "createdAt", o.updated_at AS "updatedAt",
            CASE WHEN rt.id IS NULL THEN NULL
                 ELSE json_build_object('id', rt.id, 'label', rt.label, 'color', rt.color, 'type', rt.type) END AS "relationType",
            CASE WHEN ind.id IS NULL THEN NULL ELSE json_build_object('id', ind.id, 'name', ind.name) END AS industry,
            CASE WHEN os.id IS NULL THEN NULL ELSE json_build_object('id', os.id, 'name', os.name) END AS "organizationSize",
            COALESCE((SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'type', a.type, 'line1', a.line_1,
                                'line2', a.line_2, 'postalCode', a.postal_code, 'province', a.province, 'locality', a.locality,
                                'countryCode', a.country_code, 'countryId', a.country_id))
                        FROM organization_address a WHERE a.organization_id = o.id AND a.environment_id = $2), '[]'::json) AS addresses,
            COALESCE((SELECT json_agg(json_build_object('id', i.id, 'name', i.name, 'apiName', i.api_name,
                                'organization', i.organization, 'person', i.person) ORDER BY i.name, i.id)
                        FROM organization_interest oi JOIN interest i ON i.id = oi.interest_id
                       WHERE oi.organization_id = o.id AND oi.environment_id = $2), '[]'::json) AS interests,
            COALESCE((SELECT json_agg(json_build_object('id', c.id, 'personId', c.person_id, 'isActive', c.is_active,
                                'workFunction', c.work_function, 'workEmail', c.work_email, 'workPhone', c.work_phone,
                                'workMobile', c.work_mobile) ORDER BY c.created_at, c.id)
                        FROM contact_person c
                       WHERE c.organization_id = o.id AND c.environment_id = $2 AND c.is_active), '[]'::json) AS contacts
       FROM organization o
       LEFT JOIN relation_type rt ON rt.id = o.relation_type_id
       LEFT JOIN industry ind ON ind.id = o.industry_id
       LEFT JOIN organization_size os ON os.id = o.organization_size_id
      WHERE o.id = ANY($1::text[]) AND o.environment_id = $2`,
    ids,
    environmentId,
  );
  if (rows.length === 0) return [];
  const [customFields, managers] = await Promise.all([
    loadCustomFields(
      db,
      environmentId,
      'organization',
      rows.map((r) => r.id),
    ),
    loadEmployees(
      db,
      rows.map((r) => r.relationManagerId),
    ),
  ]);
  return rows.map((r) => ({
    ...r,
    customFields: customFields.get(r.id) ?? [],
    relationManager: r.relationManagerId ? (managers.get(r.relationManagerId) ?? null) : null,
  }));
}
