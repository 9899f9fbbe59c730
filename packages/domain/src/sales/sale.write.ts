import { SCOPED_ENVIRONMENT } from '@bo/db';
import { contactPerson } from '../crm/contactperson/contactperson.entity.js';
import { REQUIRED_MESSAGE, ValidationError } from '../shared/errors.js';
import type { EntityTransaction, ReferenceCheck, TargetEntity } from '../shared/entity/index.js';
import { projectOfSale } from './linked-project.entity.js';
import type { UpdateSaleInput } from './sale.schema.js';

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

/** A contact named with (or kept through) a write must be a contact person of the sale's organization. */
export async function assertContactOfOrganization(
  tx: EntityTransaction,
  input: RelationInput,
  relation: SaleRelation,
): Promise<void> {
  if (!relation.contactId || !relation.organizationId || !(input.contactId || input.organizationId)) return;
  const contact = await tx.contactPerson.findFirst({
    where: { id: relation.contactId, organizationId: relation.organizationId },
    select: { id: true },
  });
  if (!contact) {
    throw new ValidationError([
      {
        path: 'contactId',
        message: `${relation.contactId} is not a contact person of organization ${relation.organizationId}`,
        code: 'invalid_value',
      },
    ]);
  }
}

/** The sale's own columns named by a write (left-out fields are undefined, so Prisma keeps them). */
export function saleColumns(input: UpdateSaleInput, relation: SaleRelation) {
  return {
    subject: input.subject,
    organizationId: relation.organizationId,
    personId: relation.personId,
    contactId: relation.contactId,
    myOrganizationProfileId: input.myOrganizationProfileId,
    responsibleEmployeeId: input.responsibleEmployeeId,
    startDate: input.startDate,
    expectedClosingDate: input.expectedClosingDate,
    expectedRevenue: input.expectedRevenue,
    chanceToScore: input.chanceToScore,
    note: input.note,
    divergentPaymentTermId: input.divergentPaymentTermId,
    statusId: input.statusId,
    progressId: input.progressId,
    sourceId: input.sourceId,
    reasonId: input.reason === undefined ? undefined : (input.reason?.id ?? null),
  };
}

/** A blocked sales reason can no longer be chosen (2023-06); a sale keeps one it had. */
export async function assertReasonNotBlocked(
  tx: EntityTransaction,
  input: RelationInput & Pick<UpdateSaleInput, 'reason'>,
  currentReasonId: string | null,
) {
  const id = input.reason?.id;
  if (!id || id === currentReasonId) return;
  const reason = await tx.salesReason.findFirst({ where: { id }, select: { blocked: true, name: true } });
  if (reason?.blocked) {
    throw new ValidationError([
      { path: 'reason.id', message: `the sales reason "${reason.name}" is blocked and cannot be chosen`, code: 'blocked' },
    ]);
  }
}

/** Replaces the sale's linked projects with the given set (left out: unchanged). */
export async function writeLinkedProjects(
  tx: EntityTransaction,
  saleId: string,
  projectIds: string[] | undefined,
  now: Date,
): Promise<void> {
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
