import { SCOPED_ENVIRONMENT } from '@bo/db';
import { REQUIRED_MESSAGE, ValidationError } from '../shared/errors.js';
import { assertReferencesExist } from '../shared/references.js';
import type { Db } from '../shared/resources/definition.js';
import type { UpdateSaleInput } from './sale.schema.js';

/** Who a sale is for: an organization (optionally with one of its contacts) or a person, never both. */
export interface SaleRelation {
  organizationId: string | null;
  personId: string | null;
  contactId: string | null;
}

type RelationInput = Pick<UpdateSaleInput, 'organization_id' | 'person_id' | 'contact_id'>;

/**
 * The relation after a write. Giving `person_id` or `organization_id` switches
 * the sale to that kind of relation and clears the other (contract 2023-06,
 * "sales relation switch on PUT"); a contact belongs to an organization, so it
 * goes with a switch unless a new one is given.
 */
export function resolveRelation(current: SaleRelation | null, input: RelationInput): SaleRelation {
  const org = input.organization_id;
  const person = input.person_id;
  if (org && person) {
    throw new ValidationError([
      {
        path: 'person_id',
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
      contactId: input.contact_id !== undefined ? input.contact_id : sameOrganization ? (current?.contactId ?? null) : null,
    };
  } else if (person) {
    next = { organizationId: null, personId: person, contactId: input.contact_id ?? null };
  } else {
    // neither named with a value: the current relation stays; nulling its only side is refused below
    next = {
      organizationId: org === null ? null : (current?.organizationId ?? null),
      personId: person === null ? null : (current?.personId ?? null),
      contactId: input.contact_id === undefined ? (current?.contactId ?? null) : input.contact_id,
    };
  }
  if (!next.organizationId && !next.personId) {
    throw new ValidationError([{ path: 'organization_id', message: `${REQUIRED_MESSAGE} (or person_id)`, code: 'required' }]);
  }
  if (next.contactId && !next.organizationId) {
    throw new ValidationError([
      {
        path: 'contact_id',
        message: 'a contact person belongs to an organization; this sale is for a person',
        code: 'invalid_value',
      },
    ]);
  }
  return next;
}

/** Every id a sale write names must exist in the environment (400 naming each one), and a contact must be the organization's. */
export async function assertSaleReferences(
  tx: Db,
  environmentId: string,
  input: UpdateSaleInput,
  relation: SaleRelation,
): Promise<void> {
  await assertReferencesExist(tx, environmentId, [
    { path: 'organization_id', table: 'organization', id: input.organization_id },
    { path: 'person_id', table: 'person', id: input.person_id },
    { path: 'contact_id', table: 'contact_person', id: input.contact_id },
    { path: 'responsible_employee_id', table: 'employee', id: input.responsible_employee_id },
    { path: 'my_organization_profile_id', table: 'my_organization_profile', id: input.my_organization_profile_id },
    ...(input.linked_project_ids ?? []).map((id, i) => ({ path: `linked_project_ids.${i}`, table: 'project', id })),
  ]);
  if (relation.contactId && relation.organizationId && (input.contact_id || input.organization_id)) {
    const contact = await tx.contactPerson.findFirst({
      where: { id: relation.contactId, organizationId: relation.organizationId },
      select: { id: true },
    });
    if (!contact) {
      throw new ValidationError([
        {
          path: 'contact_id',
          message: `${relation.contactId} is not a contact person of organization ${relation.organizationId}`,
          code: 'invalid_value',
        },
      ]);
    }
  }
}

/** The sale's own columns named by a write (left-out fields are undefined, so Prisma keeps them). */
export function saleColumns(input: UpdateSaleInput, relation: SaleRelation) {
  return {
    subject: input.subject,
    organizationId: relation.organizationId,
    personId: relation.personId,
    contactId: relation.contactId,
    myOrganizationProfileId: input.my_organization_profile_id,
    responsibleEmployeeId: input.responsible_employee_id,
    startDate: input.start_date,
    expectedClosingDate: input.expected_closing_date,
    expectedRevenue: input.expected_revenue,
    chanceToScore: input.chance_to_score,
    note: input.note,
    divergentPaymentTermId: input.divergent_payment_term_id,
  };
}

/** Replaces the sale's linked projects with the given set (left out: unchanged). */
export async function writeLinkedProjects(tx: Db, saleId: string, projectIds: string[] | undefined, now: Date): Promise<void> {
  if (projectIds === undefined) return;
  await tx.saleProject.deleteMany({ where: { saleId } });
  const unique = [...new Set(projectIds)];
  if (unique.length === 0) return;
  // createdAt steps by a millisecond so the links read back in the order they were given
  await tx.saleProject.createMany({
    data: unique.map((projectId, i) => ({
      environmentId: SCOPED_ENVIRONMENT,
      saleId,
      projectId,
      createdAt: new Date(now.getTime() + i),
    })),
  });
}
