import type { Models } from '@bo/db';
import { type CustomFieldValueView, customFieldValuesJson, customFieldViews, readDefinitions } from '../../customfields/index.js';
import { loadDefinitionsForRead } from '../../customfields/custom-field-values.load.js';
import type { Db, PageContext, PageSource } from '../../shared/resources/definition.js';
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

/** What the statement answers per organization: the row, its relations as JSON, its custom-field values. */
type SelectedRow = Omit<OrganizationRow, 'customFields' | 'relationManager'> & {
  customFieldValues: Record<string, string | null> | null;
};

/**
 * The columns of one organization `t` (environment $1): the row, its reference data,
 * addresses, interests, active contacts and custom-field values as JSON.
 */
const SELECT_ORGANIZATION = `
  SELECT t.id, t.name, t.coc_code AS "cocCode", t.vat_number AS "vatNumber", t.email, t.phone, t.url, t.note,
         t.linkedin_url AS "linkedinUrl", t.has_different_postal_address AS "hasDifferentPostalAddress",
         t.relation_type_id AS "relationTypeId", t.industry_id AS "industryId", t.organization_size_id AS "organizationSizeId",
         t.invoice_receiver AS "invoiceReceiver", t.allow_autocollect AS "allowAutocollect", t.bank_account AS "bankAccount",
         t.bank_bic AS "bankBic", t.relation_number AS "relationNumber", t.is_active AS "isActive",
         t.send_invoice_email_to_contact AS "sendInvoiceEmailToContact",
         t.send_invoice_email_to_project_contact AS "sendInvoiceEmailToProjectContact",
         t.send_invoice_email_to_fixed_email AS "sendInvoiceEmailToFixedEmail",
         t.send_invoice_email_to_cc AS "sendInvoiceEmailToCc", t.relation_manager_id AS "relationManagerId",
         t.debtor_settings AS "debtorSettings", t.created_at AS "createdAt", t.updated_at AS "updatedAt",
         CASE WHEN rt.id IS NULL THEN NULL
              ELSE json_build_object('id', rt.id, 'label', rt.label, 'color', rt.color, 'type', rt.type) END AS "relationType",
         CASE WHEN ind.id IS NULL THEN NULL ELSE json_build_object('id', ind.id, 'name', ind.name) END AS industry,
         CASE WHEN os.id IS NULL THEN NULL ELSE json_build_object('id', os.id, 'name', os.name) END AS "organizationSize",
         COALESCE((SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'type', a.type, 'line1', a.line_1,
                             'line2', a.line_2, 'postalCode', a.postal_code, 'province', a.province, 'locality', a.locality,
                             'countryCode', a.country_code, 'countryId', a.country_id))
                     FROM organization_address a WHERE a.organization_id = t.id AND a.environment_id = $1), '[]'::json) AS addresses,
         COALESCE((SELECT json_agg(json_build_object('id', i.id, 'name', i.name, 'apiName', i.api_name,
                             'organization', i.organization, 'person', i.person) ORDER BY i.name, i.id)
                     FROM organization_interest oi JOIN interest i ON i.id = oi.interest_id
                    WHERE oi.organization_id = t.id AND oi.environment_id = $1), '[]'::json) AS interests,
         COALESCE((SELECT json_agg(json_build_object('id', c.id, 'personId', c.person_id, 'isActive', c.is_active,
                             'workFunction', c.work_function, 'workEmail', c.work_email, 'workPhone', c.work_phone,
                             'workMobile', c.work_mobile) ORDER BY c.created_at, c.id)
                     FROM contact_person c
                    WHERE c.organization_id = t.id AND c.environment_id = $1 AND c.is_active), '[]'::json) AS contacts,
         ${customFieldValuesJson('t.id')} AS "customFieldValues"`;

const JOIN_REFERENCES = `
  LEFT JOIN relation_type rt ON rt.id = t.relation_type_id
  LEFT JOIN industry ind ON ind.id = t.industry_id
  LEFT JOIN organization_size os ON os.id = t.organization_size_id`;

/** Custom fields from the page's definitions, relation managers in one query (only when a row has one). */
async function complete(db: Db, rows: SelectedRow[], definitions: Parameters<typeof customFieldViews>[0]) {
  const managers = await loadEmployees(
    db,
    rows.map((r) => r.relationManagerId),
  );
  const views = customFieldViews(definitions);
  // completes the rows pg just made rather than copying ~35 fields each into new objects;
  // the values object stays on the row, unread by the views
  return rows.map((r) => {
    const row = r as SelectedRow & OrganizationRow;
    row.customFields = views(r.customFieldValues);
    row.relationManager = r.relationManagerId ? (managers.get(r.relationManagerId) ?? null) : null;
    return row;
  });
}

/**
 * Organizations by id, in one SQL query, plus the custom-field definitions (one) and
 * the relation managers (one, when any): a fixed number of queries whatever the count.
 */
export async function loadOrganizations(db: Db, ids: string[], environmentId: string): Promise<OrganizationRow[]> {
  if (ids.length === 0) return [];
  const [rows, definitions] = await Promise.all([
    db.$queryRawUnsafe<SelectedRow[]>(
      `${SELECT_ORGANIZATION} FROM organization t ${JOIN_REFERENCES} WHERE t.id = ANY($2::text[]) AND t.environment_id = $1`,
      environmentId,
      ids,
    ),
    loadDefinitionsForRead(db, environmentId, 'organization'),
  ]);
  if (rows.length === 0) return [];
  return complete(db, rows, definitions);
}

/**
 * A list page in one statement: the page's ids joined back to the rows, in page order,
 * beside the custom-field definitions (run at the same time).
 */
export async function loadOrganizationPage(ctx: PageContext, page: PageSource): Promise<OrganizationRow[]> {
  const [rows, definitions] = await Promise.all([
    ctx.sql.read<SelectedRow>(
      `WITH page AS (${page.ids})
       ${SELECT_ORGANIZATION}
         FROM page JOIN organization t ON t.id = page.id AND t.environment_id = $1 ${JOIN_REFERENCES}
        ORDER BY ${page.orderBy}`,
      page.params,
    ),
    readDefinitions(ctx.sql, 'organization'),
  ]);
  if (rows.length === 0) return [];
  return complete(ctx.db, rows, definitions);
}
