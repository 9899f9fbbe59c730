import { addressColumns } from '../address.js';
import { parseDateTime, SCOPED_ENVIRONMENT } from '@bo/db';
import { ValidationError } from '../../shared/errors.js';
import { upsertContactLink } from '../contactperson/contactperson.write.js';
import { newEntityId } from '../../shared/ids.js';
import { assertReferencesExist } from '../../shared/references.js';
import type { Db } from '../../shared/resources/definition.js';
import type { AddressInput } from '../address.js';
import type { UpdatePersonInput } from './person.schema.js';

/** Column values of the scalar fields a write names; absent fields stay as they are. */
export function personColumns(input: UpdatePersonInput) {
  const ref = (r: { id: string } | null | undefined) => (r === undefined ? undefined : (r?.id ?? null));
  return {
    useCustomSalutation: input.use_custom_salutation,
    customSalutation: input.custom_salutation,
    initials: input.initials,
    firstName: input.first_name,
    familyNamePrefix: input.family_name_prefix,
    familyName: input.family_name,
    dateOfBirth:
      input.date_of_birth === undefined
        ? undefined
        : input.date_of_birth === null
          ? null
          : new Date(`${input.date_of_birth}T00:00:00Z`),
    note: input.note,
    email: input.email,
    phone: input.phone,
    websiteUrl: input.website_url,
    twitterUrl: input.twitter_url,
    linkedinUrl: input.linkedin_url,
    facebookUrl: input.facebook_url,
    relationNumber: input.relation_number,
    bankAccount: input.bank_account,
    bankBic: input.bank_bic,
    invoiceReceiver: input.invoice_receiver,
    mailingListEmail: input.mailing_list_email,
    isActive: input.is_active,
    relationTypeId: ref(input.relation_type),
    relationManagerId: ref(input.relation_manager),
  };
}

export function fullName(p: { firstName?: string | null; familyNamePrefix?: string | null; familyName?: string | null }) {
  return [p.firstName, p.familyNamePrefix, p.familyName]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(' ');
}

/** Every id the write names must exist in the environment (400 per property otherwise). */
export async function assertPersonReferences(tx: Db, environmentId: string, input: UpdatePersonInput) {
  // parseDateTime refuses dates such as 1990-02-30 that Date would roll over into March
  if (input.date_of_birth && !parseDateTime(input.date_of_birth)) {
    throw new ValidationError([{ path: 'date_of_birth', message: 'not a calendar date', code: 'invalid_date' }]);
  }
  await assertReferencesExist(tx, environmentId, [
    { path: 'gender_id', table: 'gender', id: input.gender_id },
    { path: 'relation_type.id', table: 'relation_type', id: input.relation_type?.id },
    { path: 'relation_manager.id', table: 'employee', id: input.relation_manager?.id },
    ...(input.interests ?? []).map((i, n) => ({ path: `interests.${n}.id`, table: 'interest', id: i.id })),
    ...(input.mailing_lists ?? []).map((m, n) => ({ path: `mailing_lists.${n}.id`, table: 'mailing_list', id: m.id })),
    ...(input.linked_as_contact_to_organization ?? []).map((c, n) => ({
      path: `linked_as_contact_to_organization.${n}.organization_id`,
      table: 'organization',
      id: c.organization_id,
    })),
  ]);
}

/** gender_id, or the gender by its name (Male, Female, Unknown); undefined leaves it. */
export async function resolveGenderId(tx: Db, input: UpdatePersonInput): Promise<string | null | undefined> {
  if (input.gender_id !== undefined) return input.gender_id;
  if (input.gender === undefined) return undefined;
  if (input.gender === null) return null;
  const row = await tx.gender.findFirst({ where: { name: input.gender } });
  if (!row) throw new ValidationError([{ path: 'gender', message: `no gender ${input.gender}`, code: 'not_found' }]);
  return row.id;
}

/** Replaces the person's address; null removes it, undefined leaves it. */
export async function writePersonAddress(tx: Db, personId: string, address: AddressInput) {
  if (address === undefined) return;
  if (address === null) {
    await tx.personAddress.deleteMany({ where: { personId } });
    return;
  }
  const values = addressColumns(address);
  await tx.personAddress.upsert({
    where: { personId },
    create: { id: newEntityId('address'), environmentId: SCOPED_ENVIRONMENT, personId, ...values },
    update: values,
  });
}

/** The person's interests become exactly the ones named. */
export async function writePersonInterests(tx: Db, personId: string, interests: UpdatePersonInput['interests']) {
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
export async function writeMailingLists(tx: Db, personId: string, lists: UpdatePersonInput['mailing_lists']) {
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
export async function writeContactLinks(
  tx: Db,
  personId: string,
  links: UpdatePersonInput['linked_as_contact_to_organization'],
  now: Date,
) {
  for (const link of links ?? []) await upsertContactLink(tx, { ...link, organizationId: link.organization_id, personId }, now);
}
