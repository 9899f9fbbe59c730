import { addressColumns } from '../address.js';
import { SCOPED_ENVIRONMENT } from '@bo/db';
import { upsertContactLink } from '../contactperson/contactperson.write.js';
import { newEntityId } from '../../shared/ids.js';
import { assertReferencesExist } from '../../shared/references.js';
import type { Db } from '../../shared/resources/definition.js';
import type { AddressInput, DebtorInput, UpdateOrganizationInput } from './organization.schema.js';

/** Column values of the scalar fields a write names; absent fields stay as they are. */
export function organizationColumns(input: UpdateOrganizationInput) {
  const ref = (r: { id: string } | null | undefined) => (r === undefined ? undefined : (r?.id ?? null));
  return {
    name: input.name,
    cocCode: input.coc_code,
    vatNumber: input.vat_number,
    email: input.email,
    phone: input.phone,
    url: input.url,
    note: input.note,
    linkedinUrl: input.linkedin_url,
    hasDifferentPostalAddress: input.has_different_postal_address,
    relationTypeId: ref(input.relation_type),
    industryId: ref(input.industry),
    organizationSizeId: ref(input.organizationsize),
    invoiceReceiver: input.invoice_receiver,
    allowAutocollect: input.allow_autocollect,
    bankAccount: input.bank_account,
    bankBic: input.bank_bic,
    relationNumber: input.relation_number,
    isActive: input.is_active,
    sendInvoiceEmailToContact: input.send_invoice_email_to_contact ?? input.debtor?.send_invoice_email_to_contact,
    sendInvoiceEmailToProjectContact:
      input.send_invoice_email_to_project_contact ?? input.debtor?.send_invoice_email_to_project_contact,
    sendInvoiceEmailToFixedEmail: input.send_invoice_email_to_fixed_email ?? input.debtor?.send_invoice_email_to_fixed_email,
    sendInvoiceEmailToCc: input.send_invoice_email_to_cc ?? input.debtor?.send_invoice_email_to_cc,
    relationManagerId: ref(input.relation_manager),
  };
}

/** The debtor settings kept beside the send_* columns; fields not named keep their value. */
export function debtorSettings(current: unknown, debtor: DebtorInput): Record<string, unknown> | undefined {
  if (!debtor) return undefined;
  const {
    send_invoice_email_to_contact: _a,
    send_invoice_email_to_project_contact: _b,
    send_invoice_email_to_fixed_email: _c,
    send_invoice_email_to_cc: _d,
    ...rest
  } = debtor;
  const base = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>) : {};
  return { ...base, ...rest };
}

/** The organization's interests become exactly the ones named. */
export async function writeOrganizationInterests(
  tx: Db,
  organizationId: string,
  interests: UpdateOrganizationInput['interests'],
) {
  if (interests === undefined) return;
  await tx.organizationInterest.deleteMany({ where: { organizationId } });
  const ids = [...new Set(interests.map((i) => i.id))];
  if (ids.length) {
    await tx.organizationInterest.createMany({
      data: ids.map((interestId) => ({ environmentId: SCOPED_ENVIRONMENT, organizationId, interestId })),
    });
  }
}

/** Links persons as contacts of the organization, or updates the existing links. */
export async function writeLinkedContacts(
  tx: Db,
  organizationId: string,
  links: UpdateOrganizationInput['linked_persons_contacts'],
  now: Date,
) {
  for (const link of links ?? []) await upsertContactLink(tx, { ...link, organizationId, personId: link.person_id }, now);
}

export async function assertOrganizationReferences(tx: Db, environmentId: string, input: UpdateOrganizationInput) {
  await assertReferencesExist(tx, environmentId, [
    { path: 'relation_type.id', table: 'relation_type', id: input.relation_type?.id },
    { path: 'industry.id', table: 'industry', id: input.industry?.id },
    { path: 'organizationsize.id', table: 'organization_size', id: input.organizationsize?.id },
    { path: 'relation_manager.id', table: 'employee', id: input.relation_manager?.id },
    { path: 'debtor.provision_contactperson_id', table: 'contact_person', id: input.debtor?.provision_contactperson_id },
    { path: 'debtor.attention_to_person_id', table: 'person', id: input.debtor?.attention_to_person_id },
    ...(input.interests ?? []).map((i, n) => ({ path: `interests.${n}.id`, table: 'interest', id: i.id })),
    ...(input.linked_persons_contacts ?? []).map((c, n) => ({
      path: `linked_persons_contacts.${n}.person_id`,
      table: 'person',
      id: c.person_id,
    })),
  ]);
}

/** Replaces the visiting or postal address; null removes it, undefined leaves it. */
export async function writeAddress(tx: Db, organizationId: string, kind: 'visiting' | 'postal', address: AddressInput) {
  if (address === undefined) return;
  if (address === null) {
    await tx.organizationAddress.deleteMany({ where: { organizationId, kind } });
    return;
  }
  const values = addressColumns(address);
  await tx.organizationAddress.upsert({
    where: { organizationId_kind: { organizationId, kind } },
    create: { id: newEntityId('address'), environmentId: SCOPED_ENVIRONMENT, organizationId, kind, ...values },
    update: values,
  });
}
