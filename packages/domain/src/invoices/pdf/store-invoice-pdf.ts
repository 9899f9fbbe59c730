import { RENDERED_INVOICE_PDF } from '../../documents/rendered-document.js';
import { randomBytes } from 'node:crypto';
import type { SqlWriteContext } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { FileStorage } from '../../shared/storage.js';
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

/** An address as JSON, by the keys addressLines reads. */
const addressJson = (a: string) =>
  `json_build_object('line1', ${a}.line_1, 'line2', ${a}.line_2, 'postalCode', ${a}.postal_code, 'locality', ${a}.locality,
                     'countryCode', ${a}.country_code)`;
/** An organization's postal address, else its other one. */
const organizationAddress = (o: string) =>
  `(SELECT ${addressJson('a')} FROM organization_address a WHERE a.environment_id = $1 AND a.organization_id = ${o}.id
     ORDER BY (a.kind = 'postal') DESC, a.id LIMIT 1)`;

/** The parties of the document and what else it names besides the invoice's own row. */
interface PdfParties {
  /** the number of the invoice a credit invoice credits */
  creditOf: string | null;
  /** the sender's profile: the invoice's company profile, or the environment's main one (the main first, then the oldest) */
  company: { name: string | null; vatNumber: string | null; bankAccount: string | null; address: Address | null } | null;
  debtorOrganization: { name: string; address: Address | null } | null;
  debtorPerson: { name: string; address: Address | null } | null;
  documentTypeId: string | null;
}

/** Everything the document needs besides the invoice's row, in one statement. */
async function partiesOf(
  w: SqlWriteContext,
  invoiceId: string,
  row: { myOrganizationProfileId: string | null; organizationId: string | null; personId: string | null },
): Promise<PdfParties> {
  const [parties] = await w.sql.read<PdfParties>(
    `SELECT
       (SELECT c.invoice_number FROM invoice i JOIN invoice c ON c.environment_id = $1 AND c.id = i.credited_invoice_id
         WHERE i.environment_id = $1 AND i.id = $2) AS "creditOf",
       (SELECT json_build_object('name', COALESCE(o.name, p.name), 'vatNumber', p.vat_number, 'bankAccount', p.bank_account,
                                 'address', ${organizationAddress('o')})
          FROM my_organization_profile p LEFT JOIN organization o ON o.environment_id = $1 AND o.id = p.organization_id
         WHERE p.environment_id = $1
         ORDER BY (p.id = $3) DESC NULLS LAST, p.main_profile DESC, p.created_at ASC, p.id ASC LIMIT 1) AS company,
       (SELECT json_build_object('name', o.name, 'address', ${organizationAddress('o')})
          FROM organization o WHERE o.environment_id = $1 AND o.id = $4) AS "debtorOrganization",
       (SELECT json_build_object('name', pe.full_name,
                                 'address', (SELECT ${addressJson('a')} FROM person_address a
                                              WHERE a.environment_id = $1 AND a.person_id = pe.id LIMIT 1))
          FROM person pe WHERE pe.environment_id = $1 AND pe.id = $5) AS "debtorPerson",
       (SELECT t.id FROM document_type t WHERE t.environment_id = $1 AND t.label = 'Invoice'
         ORDER BY t.created_at, t.id LIMIT 1) AS "documentTypeId"`,
    [invoiceId, row.myOrganizationProfileId, row.organizationId, row.personId],
  );
  if (!parties) throw new Error('the invoice document read answered no row');
  return parties;
}

/** The sender: the invoice's company profile, or the environment's main one. */
function companyOf(parties: PdfParties): InvoicePdfData['company'] {
  const { company } = parties;
  return {
    name: company?.name ?? 'Our company',
    address: addressLines(company?.address),
    vatNumber: company?.vatNumber ?? null,
    bankAccount: company?.bankAccount ?? null,
  };
}

/** The debtor: the invoice's organization, else its person. */
function debtorOf(parties: PdfParties) {
  const debtor = parties.debtorOrganization ?? parties.debtorPerson;
  if (debtor) return { name: debtor.name, address: addressLines(debtor.address) };
  return { name: 'Unknown debtor', address: [] };
}

/**
 * Renders the sent invoice as a PDF, writes it to the document store and links the
 * document to the invoice (in the sending transaction; a rolled-back send leaves no document row,
 * and its caller removes the bytes).
 */
export async function storeInvoicePdf(
  w: SqlWriteContext,
  storage: FileStorage,
  invoiceId: string,
  /** the storage keys written, for the caller to remove when its transaction fails */
  written: string[],
): Promise<string> {
  const [row] = await invoice.loader.byIds(w.sql, [invoiceId]);
  if (!row) throw new Error(`invoice ${invoiceId} vanished inside its own transaction`);
  const parties = await partiesOf(w, invoiceId, row);
  const data: InvoicePdfData = {
    title: row.kind === 'credit' ? 'Credit invoice' : 'Invoice',
    invoiceNumber: row.invoiceNumber ?? '',
    invoiceDate: row.invoiceDate ?? '',
    dueDate: row.dueDate,
    company: companyOf(parties),
    debtor: debtorOf(parties),
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
    creditOf: parties.creditOf,
  };
  // the process reserved for the write's one render, if it took one (used once)
  const reserved = w.render;
  w.render = undefined;
  const bytes = await renderInvoicePdfBounded(w.ctx, w.sql, data, reserved);
  const hex = randomBytes(16).toString('hex');
  const storageKey = `documents/${hex.slice(0, 2)}/${hex}`;
  written.push(storageKey);
  await storage.writeAt(storageKey, 0, bytes);
  const id = newEntityId('document');
  await w.sql.insert('document', {
    id,
    title: `${data.title} ${data.invoiceNumber}`,
    document_type_id: parties.documentTypeId,
    // made by the service, not from an upload: the key names the invoice it renders
    upload_id: `${RENDERED_INVOICE_PDF}${invoiceId}`,
    storage_key: storageKey,
    file_name: `${data.title.toLowerCase().replace(' ', '-')}-${data.invoiceNumber}.pdf`,
    file_size: bytes.length,
    content_type: 'application/pdf',
    linked_invoice_id: invoiceId,
    created_by_id: w.ctx.principal.userId,
    updated_at: w.now,
  });
  return id;
}
