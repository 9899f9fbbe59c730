import type { TenantReader } from '@bo/db';
import { newEntityId } from '../../shared/ids.js';
import { columnsOfWrite } from '../../shared/entity/entity-write.js';
import type { ReferenceCheck } from '../../shared/entity/index.js';
import type { AddressInput } from '../address.entity.js';
import { upsertContactLink } from '../contactperson/contactperson.write.js';
import { contactPerson } from '../contactperson/contactperson.entity.js';
import { person } from '../person/person.entity.js';
import { organization } from './organization.entity.js';
import type { DebtorInput, UpdateOrganizationInput } from './organization.schema.js';

/**
 * The columns of the fields a write names, by the entity's declaration (absent fields stay as they
 * are); the send_* flags may also come inside the debtor settings, where the field itself wins.
 */
export function organizationColumns(input: UpdateOrganizationInput): Record<string, unknown> {
  const named: Record<string, unknown> = { ...input };
  for (const [key, value] of Object.entries(input.debtor ?? {})) if (named[key] === undefined) named[key] = value;
  return columnsOfWrite(organization, named);
}

/** Storage keys of the debtor settings JSON (the send_* flags are columns of their own). */
const DEBTOR_KEYS: Record<string, string> = {
  provisionMethod: 'provision_method',
  provisionContactpersonId: 'provision_contactperson_id',
  sendEmailEmail: 'send_email_email',
  cc: 'cc',
  attentionTo: 'attention_to',
  attentionToPersonId: 'attention_to_person_id',
  attentionToFixed: 'attention_to_fixed',
  autocollect: 'autocollect',
  reminders: 'reminders',
  sendEmailType: 'send_email_type',
  autosendSubscriptionInvoice: 'autosend_subscription_invoice',
};

/** The debtor settings kept beside the send_* columns; settings not named keep their value. */
export function debtorSettings(current: unknown, debtor: DebtorInput): Record<string, unknown> | undefined {
  if (!debtor) return undefined;
  const base = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>) : {};
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(debtor)) {
    const stored = DEBTOR_KEYS[key];
    if (stored && value !== undefined) out[stored] = value;
  }
  return out;
}

/** The organization's interests become exactly the ones named: one statement, the others go and the named ones stay or come. */
export async function writeOrganizationInterests(
  sql: TenantReader,
  organizationId: string,
  interests: UpdateOrganizationInput['interests'],
) {
  if (interests === undefined) return;
  const ids = [...new Set(interests.map((i) => i.id))];
  await sql.queue(
    `WITH gone AS (
       DELETE FROM organization_interest WHERE environment_id = $1 AND organization_id = $2 AND NOT (interest_id = ANY($3::text[])))
     INSERT INTO organization_interest (environment_id, organization_id, interest_id)
     SELECT $1, $2, unnest($3::text[])
     ON CONFLICT DO NOTHING`,
    [organizationId, ids],
    { stablePlan: true },
  );
}

/** Links persons as contacts of the organization, or updates the existing links. */
export async function writeLinkedContacts(
  sql: TenantReader,
  organizationId: string,
  links: UpdateOrganizationInput['contacts'],
  now: Date,
) {
  for (const link of links ?? []) await upsertContactLink(sql, { ...link, organizationId }, now);
}

/** The ids an organization write names beyond its declared relations. */
export function organizationReferences(input: UpdateOrganizationInput): ReferenceCheck[] {
  return [
    { path: 'debtor.provisionContactpersonId', target: contactPerson, id: input.debtor?.provisionContactpersonId },
    { path: 'debtor.attentionToPersonId', target: person, id: input.debtor?.attentionToPersonId },
    ...(input.contacts ?? []).map((c, n) => ({ path: `contacts.${n}.personId`, target: person, id: c.personId })),
  ];
}

/** Replaces the visiting or postal address; null removes it, undefined leaves it. One statement either way. */
export async function writeAddress(
  sql: TenantReader,
  organizationId: string,
  kind: 'visiting' | 'postal',
  address: AddressInput,
) {
  if (address === undefined) return;
  if (address === null) {
    await sql.queue('DELETE FROM organization_address WHERE environment_id = $1 AND organization_id = $2 AND kind = $3', [
      organizationId,
      kind,
    ]);
    return;
  }
  await sql.queue(
    `INSERT INTO organization_address (environment_id, id, organization_id, kind, type, line_1, line_2, postal_code,
                                       province, locality, country_code, country_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (organization_id, kind) DO UPDATE
       SET type = EXCLUDED.type, line_1 = EXCLUDED.line_1, line_2 = EXCLUDED.line_2, postal_code = EXCLUDED.postal_code,
           province = EXCLUDED.province, locality = EXCLUDED.locality, country_code = EXCLUDED.country_code,
           country_id = EXCLUDED.country_id
       WHERE organization_address.environment_id = $1`,
    [
      newEntityId('address'),
      organizationId,
      kind,
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
