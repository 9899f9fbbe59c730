import type { TenantReader } from '@bo/db';
import { columnsOfWrite } from '../../shared/entity/entity-write.js';
import type { ReferenceCheck } from '../../shared/entity/index.js';
import { ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { AddressInput } from '../address.entity.js';
import { upsertContactLink } from '../contactperson/contactperson.write.js';
import { organization } from '../organization/organization.entity.js';
import { gender } from '../reference/reference.entities.js';
import { person } from './person.entity.js';
import type { UpdatePersonInput } from './person.schema.js';

/**
 * The columns of the fields a write names, by the entity's declaration (absent fields stay as they
 * are): the scalars, the date of birth as its YYYY-MM-DD text, relationType and relationManager as
 * their foreign keys.
 */
export function personColumns(input: UpdatePersonInput): Record<string, unknown> {
  return columnsOfWrite(person, input);
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

/** genderId, or the gender by its name (Male, Female, Unknown); undefined leaves it. A name costs one read. */
export async function resolveGenderId(sql: TenantReader, input: UpdatePersonInput): Promise<string | null | undefined> {
  if (input.genderId !== undefined) return input.genderId;
  if (input.gender === undefined) return undefined;
  if (input.gender === null) return null;
  const [row] = await sql.read<{ id: string }>('SELECT id FROM gender WHERE environment_id = $1 AND name = $2 LIMIT 1', [
    input.gender,
  ]);
  if (!row) throw new ValidationError([{ path: 'gender', message: `no gender ${input.gender}`, code: 'not_found' }]);
  return row.id;
}

/**
 * What String.prototype.trim takes off (white space and line terminators): `fullName` in SQL
 * trims the same characters as `fullName` here.
 */
const TRIMMED =
  '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

/**
 * Sets the person's full name from its stored names, as `fullName` makes it: one statement queued
 * after the names' own update (an update that names one of them needs the others as stored).
 */
export async function writeFullName(sql: TenantReader, personId: string): Promise<void> {
  const part = (column: string) => `NULLIF(btrim(${column}, $3), '')`;
  await sql.queue(
    `UPDATE person SET full_name = array_to_string(ARRAY[${part('first_name')}, ${part('family_name_prefix')}, ${part('family_name')}], ' ')
      WHERE environment_id = $1 AND id = $2`,
    [personId, TRIMMED],
    { stablePlan: true },
  );
}

/** Replaces the person's address; null removes it, undefined leaves it. One statement either way. */
export async function writePersonAddress(sql: TenantReader, personId: string, address: AddressInput) {
  if (address === undefined) return;
  if (address === null) {
    await sql.queue('DELETE FROM person_address WHERE environment_id = $1 AND person_id = $2', [personId]);
    return;
  }
  await sql.queue(
    `INSERT INTO person_address (environment_id, id, person_id, type, line_1, line_2, postal_code, province, locality,
                                 country_code, country_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (person_id) DO UPDATE
       SET type = EXCLUDED.type, line_1 = EXCLUDED.line_1, line_2 = EXCLUDED.line_2, postal_code = EXCLUDED.postal_code,
           province = EXCLUDED.province, locality = EXCLUDED.locality, country_code = EXCLUDED.country_code,
           country_id = EXCLUDED.country_id
       WHERE person_address.environment_id = $1`,
    [
      newEntityId('address'),
      personId,
      address.type ?? null,
      address.line1 ?? null,
      address.line2 ?? null,
      address.postalCode ?? null,
      address.province ?? null,
      address.locality ?? null,
      address.countryCode ?? null,
      address.countryId ?? null,
    ],
    { stablePlan: true },
  );
}

/** The person's interests become exactly the ones named: one statement, the others go and the named ones stay or come. */
export async function writePersonInterests(sql: TenantReader, personId: string, interests: UpdatePersonInput['interests']) {
  if (interests === undefined) return;
  const ids = [...new Set(interests.map((i) => i.id))];
  await sql.queue(
    `WITH gone AS (
       DELETE FROM person_interest WHERE environment_id = $1 AND person_id = $2 AND NOT (interest_id = ANY($3::text[])))
     INSERT INTO person_interest (environment_id, person_id, interest_id)
     SELECT $1, $2, unnest($3::text[])
     ON CONFLICT DO NOTHING`,
    [personId, ids],
    { stablePlan: true },
  );
}

/** Adds the person to the lists with value true and takes them off those with value false (2024-04): one statement. */
export async function writeMailingLists(sql: TenantReader, personId: string, lists: UpdatePersonInput['mailingLists']) {
  if (!lists?.length) return;
  const add = [...new Set(lists.filter((l) => l.value).map((l) => l.id))];
  // a list named both ways ends up on, as when the removals went first; one statement never touches a row twice
  const remove = lists.filter((l) => !l.value && !add.includes(l.id)).map((l) => l.id);
  await sql.queue(
    `WITH gone AS (
       DELETE FROM person_mailing_list WHERE environment_id = $1 AND person_id = $2 AND mailing_list_id = ANY($3::text[]))
     INSERT INTO person_mailing_list (environment_id, person_id, mailing_list_id)
     SELECT $1, $2, unnest($4::text[])
     ON CONFLICT DO NOTHING`,
    [personId, remove, add],
    { stablePlan: true },
  );
}

/** Links the person to organizations as a contact, or updates the existing link. */
export async function writeContactLinks(sql: TenantReader, personId: string, links: UpdatePersonInput['contacts'], now: Date) {
  for (const link of links ?? []) await upsertContactLink(sql, { ...link, personId }, now);
}
