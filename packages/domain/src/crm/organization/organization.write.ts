import { SCOPED_ENVIRONMENT } from '@bo/db';
import { newEntityId } from '../../shared/ids.js';
import { assertReferencesExist } from '../../shared/references.js';
import type { Db } from '../../shared/resources/definition.js';
import type { AddressInput, UpdateOrganizationInput } from './organization.schema.js';

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
    sendInvoiceEmailToContact: input.send_invoice_email_to_contact,
    sendInvoiceEmailToProjectContact: input.send_invoice_email_to_project_contact,
    sendInvoiceEmailToFixedEmail: input.send_invoice_email_to_fixed_email,
    sendInvoiceEmailToCc: input.send_invoice_email_to_cc,
  };
}

export async function assertOrganizationReferences(tx: Db, environmentId: string, input: UpdateOrganizationInput) {
  await assertReferencesExist(tx, environmentId, [
    { path: 'relation_type.id', table: 'relation_type', id: input.relation_type?.id },
    { path: 'industry.id', table: 'industry', id: input.industry?.id },
    { path: 'organizationsize.id', table: 'organization_size', id: input.organizationsize?.id },
  ]);
}

/** Replaces the visiting or postal address; null removes it, undefined leaves it. */
export async function writeAddress(tx: Db, organizationId: string, kind: 'visiting' | 'postal', address: AddressInput) {
  if (address === undefined) return;
  if (address === null) {
    await tx.organizationAddress.deleteMany({ where: { organizationId, kind } });
    return;
  }
  const values = {
    type: address.type ?? null,
    line1: address.line_1 ?? null,
    line2: address.line_2 ?? null,
    postalCode: address.postal_code ?? null,
    province: address.province ?? null,
    locality: address.locality ?? null,
    countryCode: address.country_code ?? null,
    countryId: address.country_id ?? null,
  };
  await tx.organizationAddress.upsert({
    where: { organizationId_kind: { organizationId, kind } },
    create: { id: newEntityId('address'), environmentId: SCOPED_ENVIRONMENT, organizationId, kind, ...values },
    update: values,
  });
}
