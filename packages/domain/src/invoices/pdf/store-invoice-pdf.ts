import { RENDERED_INVOICE_PDF } from '../../documents/rendered-document.js';
import { randomBytes } from 'node:crypto';
import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityTransaction, WriteContext } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { FileStorage } from '../../shared/storage.js';
import { PREFERRED_PROFILE_ORDER } from '../../crm/myorganization/myorganizationprofile.entity.js';
import { invoice } from '../invoice/invoice.entity.js';
import { renderInvoicePdfBounded } from '../../rendering/bounded.js';
import type { InvoicePdfData } from './render-invoice-pdf.js';

type Address = {
  line1: string | null;
  line2: string | null;
  postalCode: string | null;
  locality: string | null;
  countryCode: string | null;
};

const addressLines = (a: Address | null | undefined): string[] =>
  a
    ? [a.line1, a.line2, [a.postalCode, a.locality].filter(Boolean).join(' '), a.countryCode].filter(
        (l): l is string => !!l && l.trim() !== '',
      )
    : [];

async function organizationOf(tx: EntityTransaction, id: string | null) {
  if (!id) return null;
  return tx.organization.findFirst({ where: { id }, include: { addresses: true } });
}

/** The sender: the invoice's company profile, or the environment's main one. */
async function companyOf(tx: EntityTransaction, profileId: string | null): Promise<InvoicePdfData['company']> {
  const profile =
    (profileId ? await tx.myOrganizationProfile.findFirst({ where: { id: profileId } }) : null) ??
    (await tx.myOrganizationProfile.findFirst({ orderBy: [...PREFERRED_PROFILE_ORDER] }));
  const org = await organizationOf(tx, profile?.organizationId ?? null);
  const address = org?.addresses.find((a) => a.kind === 'postal') ?? org?.addresses[0];
  return {
    name: org?.name ?? profile?.name ?? 'Our company',
    address: addressLines(address),
    vatNumber: profile?.vatNumber ?? null,
    bankAccount: profile?.bankAccount ?? null,
  };
}

async function debtorOf(tx: EntityTransaction, organizationId: string | null, personId: string | null) {
  const org = await organizationOf(tx, organizationId);
  if (org) {
    const address = org.addresses.find((a) => a.kind === 'postal') ?? org.addresses[0];
    return { name: org.name, address: addressLines(address) };
  }
  if (personId) {
    const person = await tx.person.findFirst({ where: { id: personId }, include: { addresses: true } });
    if (person) return { name: person.fullName, address: addressLines(person.addresses[0]) };
  }
  return { name: 'Unknown debtor', address: [] };
}

/**
 * Renders the sent invoice as a PDF, writes it to the document store and links the
 * document to the invoice (in the sending transaction; a rolled-back send leaves no document row,
 * and its caller removes the bytes).
 */
export async function storeInvoicePdf(
  w: WriteContext,
  storage: FileStorage,
  invoiceId: string,
  /** the storage keys written, for the caller to remove when its transaction fails */
  written: string[],
): Promise<string> {
  const [row] = await invoice.loader.byIds(w.sql, [invoiceId]);
  if (!row) throw new Error(`invoice ${invoiceId} vanished inside its own transaction`);
  const stored = await w.tx.invoice.findFirstOrThrow({ where: { id: invoiceId } });
  const credited = stored.creditedInvoiceId
    ? await w.tx.invoice.findFirst({ where: { id: stored.creditedInvoiceId }, select: { invoiceNumber: true } })
    : null;
  const data: InvoicePdfData = {
    title: row.kind === 'credit' ? 'Credit invoice' : 'Invoice',
    invoiceNumber: row.invoiceNumber ?? '',
    invoiceDate: row.invoiceDate ?? '',
    dueDate: row.dueDate,
    company: await companyOf(w.tx, row.myOrganizationProfileId),
    debtor: await debtorOf(w.tx, row.organizationId, row.personId),
    subject: row.subject,
    reference: row.reference,
    lines: row.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      price: l.price,
      amount: l.amount,
      vatPercentage: l.vatPercentage,
    })),
    vatByClass: row.vatByClass,
    totalExcl: row.totalExcl,
    totalVat: row.totalVat,
    totalIncl: row.totalIncl,
    creditOf: credited?.invoiceNumber ?? null,
  };
  const bytes = await renderInvoicePdfBounded(w.ctx, data);
  const hex = randomBytes(16).toString('hex');
  const storageKey = `documents/${hex.slice(0, 2)}/${hex}`;
  written.push(storageKey);
  await storage.writeAt(storageKey, 0, bytes);
  const type = await w.tx.documentType.findFirst({ where: { label: 'Invoice' } });
  const id = newEntityId('document');
  await w.tx.document.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      title: `${data.title} ${data.invoiceNumber}`,
      documentTypeId: type?.id ?? null,
      // made by the service, not from an upload: the key names the invoice it renders
      uploadId: `${RENDERED_INVOICE_PDF}${invoiceId}`,
      storageKey,
      fileName: `${data.title.toLowerCase().replace(' ', '-')}-${data.invoiceNumber}.pdf`,
      fileSize: BigInt(bytes.length),
      contentType: 'application/pdf',
      linkedInvoiceId: invoiceId,
      createdById: w.ctx.principal.userId,
    },
  });
  return id;
}
