import type { TenantReader } from '@bo/db';
import { contactPerson } from '../crm/contactperson/contactperson.entity.js';
import { REQUIRED_MESSAGE, ValidationError } from '../shared/errors.js';
import type { ReferenceCheck, TargetEntity } from '../shared/entity/index.js';
import { projectOfSale } from './linked-project.entity.js';
import type { UpdateSaleInput } from './sale.schema.js';
import { optionalDateText } from './sql-writes.js';

/** Who a sale is for: an organization (optionally with one of its contacts) or a person, never both. */
export interface SaleRelation {
  organizationId: string | null;
  personId: string | null;
  contactId: string | null;
}

type RelationInput = Pick<UpdateSaleInput, 'organizationId' | 'personId' | 'contactId'>;

/**
 * The relation after a write. Giving `personId` or `organizationId` switches the sale
 * to that kind of relation and clears the other (contract 2023-06, "sales relation
 * switch on PUT"); a contact belongs to an organization, so it goes with a switch
 * unless a new one is given.
 */
export function resolveRelation(current: SaleRelation | null, input: RelationInput): SaleRelation {
  const org = input.organizationId;
  const person = input.personId;
  if (org && person) {
    throw new ValidationError([
      {
        path: 'personId',
        message: 'a sale is for an organization or a person: give one of organization_id and person_id',
        code: 'conflict',
      },
    ]);
  }
  let next: SaleRelation;
  if (org) {
    const sameOrganization = current?.organizationId === org;
    next = {
      organizationId: org,
      personId: null,
      contactId: input.contactId !== undefined ? input.contactId : sameOrganization ? (current?.contactId ?? null) : null,
    };
  } else if (person) {
    next = { organizationId: null, personId: person, contactId: input.contactId ?? null };
  } else {
    // neither named with a value: the current relation stays; nulling its only side is refused below
    next = {
      organizationId: org === null ? null : (current?.organizationId ?? null),
      personId: person === null ? null : (current?.personId ?? null),
      contactId: input.contactId === undefined ? (current?.contactId ?? null) : input.contactId,
    };
  }
  if (!next.organizationId && !next.personId) {
    throw new ValidationError([{ path: 'organizationId', message: `${REQUIRED_MESSAGE} (or person_id)`, code: 'required' }]);
  }
  if (next.contactId && !next.organizationId) {
    throw new ValidationError([
      {
        path: 'contactId',
        message: 'a contact person belongs to an organization; this sale is for a person',
        code: 'invalid_value',
      },
    ]);
  }
  return next;
}

/** company profiles belong to the CRM's my-organization settings */
const myOrganizationProfile: TargetEntity = {
  type: 'myorganizationprofile',
  table: 'my_organization_profile',
  module: 'crm',
  fields: {},
};

/** The ids a sale write names beyond its declared relations (organization, person, responsible employee). */
export function saleReferences(input: UpdateSaleInput): ReferenceCheck[] {
  return [
    { path: 'contactId', target: contactPerson, id: input.contactId },
    { path: 'myOrganizationProfileId', target: myOrganizationProfile, id: input.myOrganizationProfileId },
    ...(input.linkedProjectIds ?? []).map((id, i) => ({ path: `linkedProjectIds.${i}`, target: projectOfSale, id })),
  ];
}

interface SaleRuleChecks {
  /** true: the relation's contact is a contact person of its organization; null: not checked */
  contact_ok: boolean | null;
  reason: { blocked: boolean; name: string } | null;
}

/**
 * The rules a sale write is held to beyond its references, read in one statement when the write
 * names anything they concern: a contact named with (or kept through) a write must be a contact
 * person of the sale's organization, and a blocked sales reason can no longer be chosen (2023-06;
 * a sale keeps one it had).
 */
export async function assertSaleRules(
  sql: TenantReader,
  input: RelationInput & Pick<UpdateSaleInput, 'reason'>,
  relation: SaleRelation,
  currentReasonId: string | null,
): Promise<void> {
  const contactChecked = !!(relation.contactId && relation.organizationId && (input.contactId || input.organizationId));
  const reasonId = input.reason?.id && input.reason.id !== currentReasonId ? input.reason.id : null;
  if (!contactChecked && !reasonId) return;
  const [found] = await sql.read<SaleRuleChecks>(
    `SELECT (SELECT true FROM contact_person c WHERE c.environment_id = $1 AND c.id = $2 AND c.organization_id = $3) AS contact_ok,
            (SELECT json_build_object('blocked', r.blocked, 'name', r.name) FROM sales_reason r
              WHERE r.environment_id = $1 AND r.id = $4) AS reason`,
    [contactChecked ? relation.contactId : null, contactChecked ? relation.organizationId : null, reasonId],
  );
  if (contactChecked && !found?.contact_ok) {
    throw new ValidationError([
      {
        path: 'contactId',
        message: `${relation.contactId} is not a contact person of organization ${relation.organizationId}`,
        code: 'invalid_value',
      },
    ]);
  }
  if (found?.reason?.blocked) {
    throw new ValidationError([
      { path: 'reason.id', message: `the sales reason "${found.reason.name}" is blocked and cannot be chosen`, code: 'blocked' },
    ]);
  }
}

/** The sale's own columns named by a write, by column (left-out fields are undefined: they keep their value). */
export function saleColumns(input: UpdateSaleInput, relation: SaleRelation): Record<string, unknown> {
  return {
    subject: input.subject,
    organization_id: relation.organizationId,
    person_id: relation.personId,
    contact_id: relation.contactId,
    my_organization_profile_id: input.myOrganizationProfileId,
    responsible_employee_id: input.responsibleEmployeeId,
    start_date: optionalDateText(input.startDate),
    expected_closing_date: optionalDateText(input.expectedClosingDate),
    expected_revenue: input.expectedRevenue,
    chance_to_score: input.chanceToScore,
    note: input.note,
    divergent_payment_term_id: input.divergentPaymentTermId,
    status_id: input.statusId,
    progress_id: input.progressId,
    source_id: input.sourceId,
    reason_id: input.reason === undefined ? undefined : (input.reason?.id ?? null),
  };
}

/**
 * Replaces the sale's linked projects with the given set (left out: unchanged), in one statement:
 * the others go, the named ones stay or come. created_at steps by a millisecond so the links read
 * back in the order they were given (a kept link takes its new place too).
 */
export async function writeLinkedProjects(
  sql: TenantReader,
  saleId: string,
  projectIds: string[] | undefined,
  now: Date,
): Promise<void> {
  if (projectIds === undefined) return;
  const unique = [...new Set(projectIds)];
  await sql.queue(
    `WITH gone AS (
       DELETE FROM sale_project WHERE environment_id = $1 AND sale_id = $2 AND NOT (project_id = ANY($3::text[])))
     INSERT INTO sale_project (environment_id, sale_id, project_id, created_at)
     SELECT $1, $2, p.project_id, $4::timestamptz + (p.n - 1) * interval '1 millisecond'
       FROM unnest($3::text[]) WITH ORDINALITY AS p(project_id, n)
     ON CONFLICT (sale_id, project_id) DO UPDATE SET created_at = EXCLUDED.created_at
       WHERE sale_project.environment_id = $1`,
    [saleId, unique, now],
    { stablePlan: true },
  );
}
