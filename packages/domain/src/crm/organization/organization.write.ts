import type { TenantReader } from '@bo/db';
import { newEntityId } from '../../shared/ids.js';
import type { ReferenceCheck } from '../../shared/entity/index.js';
import type { AddressInput } from '../address.entity.js';
import { upsertContactLink } from '../contactperson/contactperson.write.js';
import { contactPerson } from '../contactperson/contactperson.entity.js';
import { person } from '../person/person.entity.js';
import type { DebtorInput, UpdateOrganizationInput } from './organization.schema.js';

/** Column values of the scalar fields a write names; absent fields stay as they are. */
export function organizationColumns(input: UpdateOrganizationInput) {
  const ref = (r: { id: string } | null | undefined) => (r === undefined ? undefined : (r?.id ?? null));
  return {
    name: input.name,
    cocCode: input.cocCode,
    vatNumber: input.vatNumber,
    email: input.email,
    phone: input.phone,
    url: input.url,
    note: input.note,
    linkedinUrl: input.linkedinUrl,
    hasDifferentPostalAddress: input.hasDifferentPostalAddress,
    relationTypeId: ref(input.relationType),
    industryId: ref(input.industry),
    organizationSizeId: ref(input.organizationSize),
    invoiceReceiver: input.invoiceReceiver,
    allowAutocollect: input.allowAutocollect,
    bankAccount: input.bankAccount,
    bankBic: input.bankBic,
    relationNumber: input.relationNumber,
    isActive: input.isActive,
    sendInvoiceEmailToContact: input.sendInvoiceEmailToContact ?? input.debtor?.sendInvoiceEmailToContact,
    sendInvoiceEmailToProjectContact: input.sendInvoiceEmailToProjectContact ?? input.debtor?.sendInvoiceEmailToProjectContact,
    sendInvoiceEmailToFixedEmail: input.sendInvoiceEmailToFixedEmail ?? input.debtor?.sendInvoiceEmailToFixedEmail,
    sendInvoiceEmailToCc: input.sendInvoiceEmailToCc ?? input.debtor?.sendInvoiceEmailToCc,
    relationManagerId: ref(input.relationManager),
  };
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
