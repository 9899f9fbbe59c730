import { SCOPED_ENVIRONMENT, type TenantReader } from '@bo/db';
import type { EntityTransaction, ReferenceCheck } from '../../shared/entity/index.js';
import { ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { AddressInput } from '../address.entity.js';
import { upsertContactLink } from '../contactperson/contactperson.write.js';
import { organization } from '../organization/organization.entity.js';
import { gender } from '../reference/reference.entities.js';
import type { UpdatePersonInput } from './person.schema.js';

/** Column values of the scalar fields a write names; absent fields stay as they are. */
export function personColumns(input: UpdatePersonInput) {
  const ref = (r: { id: string } | null | undefined) => (r === undefined ? undefined : (r?.id ?? null));
  return {
    useCustomSalutation: input.useCustomSalutation,
    customSalutation: input.customSalutation,
    initials: input.initials,
    firstName: input.firstName,
    familyNamePrefix: input.familyNamePrefix,
    familyName: input.familyName,
    dateOfBirth:
      input.dateOfBirth === undefined
        ? undefined
        : input.dateOfBirth === null
          ? null
          : new Date(`${input.dateOfBirth}T00:00:00Z`),
    note: input.note,
    email: input.email,
    phone: input.phone,
    websiteUrl: input.websiteUrl,
    twitterUrl: input.twitterUrl,
    linkedinUrl: input.linkedinUrl,
    facebookUrl: input.facebookUrl,
    relationNumber: input.relationNumber,
    bankAccount: input.bankAccount,
    bankBic: input.bankBic,
    invoiceReceiver: input.invoiceReceiver,
    mailingListEmail: input.mailingListEmail,
    isActive: input.isActive,
    relationTypeId: ref(input.relationType),
    relationManagerId: ref(input.relationManager),
  };
}

export function fullName(p: { firstName?: string | null; familyNamePrefix?: string | null; familyName?: string | null }) {
  return [p.firstName, p.familyNamePrefix, p.familyName]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(' ');
}

/** The ids a person write names beyond its declared relations. */
export function personReferences(input: UpdatePersonInput): ReferenceCheck[] {
  return [
    { path: 'genderId', target: gender, id: input.genderId },
    ...(input.contacts ?? []).map((c, n) => ({
      path: `contacts.${n}.organizationId`,
      target: organization,
      id: c.organizationId,
    })),
  ];
}

/** genderId, or the gender by its name (Male, Female, Unknown); undefined leaves it. */
export async function resolveGenderId(tx: EntityTransaction, input: UpdatePersonInput): Promise<string | null | undefined> {
  if (input.genderId !== undefined) return input.genderId;
  if (input.gender === undefined) return undefined;
  if (input.gender === null) return null;
  const row = await tx.gender.findFirst({ where: { name: input.gender } });
  if (!row) throw new ValidationError([{ path: 'gender', message: `no gender ${input.gender}`, code: 'not_found' }]);
  return row.id;
}

/** Replaces the person's address; null removes it, undefined leaves it. */
export async function writePersonAddress(tx: EntityTransaction, personId: string, address: AddressInput) {
  if (address === undefined) return;
  if (address === null) {
    await tx.personAddress.deleteMany({ where: { personId } });
    return;
  }
  const values = {
    type: address.type ?? null,
    line1: address.line1 ?? null,
    line2: address.line2 ?? null,
    postalCode: address.postalCode ?? null,
    province: address.province ?? null,
    locality: address.locality ?? null,
    countryCode: address.countryCode ?? null,
    countryId: address.countryId ?? null,
  };
  await tx.personAddress.upsert({
    where: { personId },
    create: { id: newEntityId('address'), environmentId: SCOPED_ENVIRONMENT, personId, ...values },
    update: values,
  });
}

/** The person's interests become exactly the ones named. */
export async function writePersonInterests(tx: EntityTransaction, personId: string, interests: UpdatePersonInput['interests']) {
  if (interests === undefined) return;
  await tx.personInterest.deleteMany({ where: { personId } });
  const ids = [...new Set(interests.map((i) => i.id))];
  if (ids.length) {
    await tx.personInterest.createMany({
      data: ids.map((interestId) => ({ environmentId: SCOPED_ENVIRONMENT, personId, interestId })),
    });
  }
}

/** Adds the person to the lists with value true and takes them off those with value false (2024-04). */
export async function writeMailingLists(tx: EntityTransaction, personId: string, lists: UpdatePersonInput['mailingLists']) {
  if (!lists?.length) return;
  const add = lists.filter((l) => l.value).map((l) => l.id);
  const remove = lists.filter((l) => !l.value).map((l) => l.id);
  if (remove.length) await tx.personMailingList.deleteMany({ where: { personId, mailingListId: { in: remove } } });
  if (add.length) {
    await tx.personMailingList.createMany({
      data: add.map((mailingListId) => ({ environmentId: SCOPED_ENVIRONMENT, personId, mailingListId })),
      skipDuplicates: true,
    });
  }
}

/** Links the person to organizations as a contact, or updates the existing link. */
export async function writeContactLinks(sql: TenantReader, personId: string, links: UpdatePersonInput['contacts'], now: Date) {
  for (const link of links ?? []) await upsertContactLink(sql, { ...link, personId }, now);
}
