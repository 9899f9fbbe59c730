import { areaDocumentTypeV2 } from '../documents/documenttype.js';
import type {
  InvoiceStatus,
  PaymentTerm,
  ReminderSet,
  ReminderTemplate,
} from '@bo/domain/invoices/lookups/invoice-lookups.entity';
import type { Proposition } from '@bo/domain/invoices/lookups/proposition.entity';
import type { ReverseInvoice } from '@bo/domain/invoices/lookups/reverse-invoice.entity';
import type { VatClass } from '@bo/domain/sales/lookups/lookups.entity';
import { vatClassV2 } from '../sales/service.js';
import { projectSimpleV2 } from '../shared/simple.js';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names();

const METHOD_V2: Record<PaymentTerm['method'], string> = {
  direct_debit: 'Direct Debit',
  bank_transfer: 'Bank Transfer',
  cash: 'Cash',
};

/** reference: GetPaymentTerm */
export function paymentTermV2(t: Pick<PaymentTerm, 'id' | 'name' | 'days' | 'method'>): Record<string, unknown> {
  return { id: t.id, name: t.name, days: t.days, method: METHOD_V2[t.method] };
}

export const paymentTermV2Resource = v2Resource<PaymentTerm>({
  path: 'invoices/paymentterm',
  procedures: (c) => c.invoices.paymentterm,
  names,
  read: paymentTermV2,
});

/** reference: InvoiceStatus, with the status key it stands for */
export const invoiceStatusV2 = v2Resource<InvoiceStatus>({
  path: 'invoices/invoicestatus',
  procedures: (c) => c.invoices.invoicestatus,
  names,
  read: (s) => ({ id: s.id, name: s.name, color: s.color, key: s.key }),
  // the reference names no definition of its own for the list
  conformance: false,
});

/** reference: GetReminderSet */
export const reminderSetV2 = v2Resource<ReminderSet>({
  path: 'invoices/reminderset',
  procedures: (c) => c.invoices.reminderset,
  names,
  read: (s) => ({
    id: s.id,
    label: s.label,
    disabled: s.disabled,
    is_default: s.isDefault,
    templates: s.templates.map((t) => ({
      id: t.id,
      label: t.label,
      send_after: t.sendAfter,
      position: t.position,
      reminder_template_id: t.reminderTemplateId,
    })),
  }),
});

/** reference: ReminderTemplate */
export const reminderTemplateV2 = v2Resource<ReminderTemplate>({
  path: 'invoices/remindertemplate',
  procedures: (c) => c.invoices.remindertemplate,
  names,
  read: (t) => ({ id: t.id, label: t.label, subject: t.subject, body: t.body, attach_invoice: t.attachInvoice }),
});

/** reference: VatClass; the same VAT classes as sales, read under the invoices right */
export const invoiceVatClassV2 = v2Resource<VatClass>({
  path: 'invoices/vatclass',
  procedures: (c) => c.invoices.vatclass,
  names,
  read: (v) => vatClassV2(v) ?? {},
});

/** reference: GetProposition */
export const propositionV2 = v2Resource<Proposition>({
  path: 'invoices/proposition',
  procedures: (c) => c.invoices.proposition,
  names,
  read: (p) => ({
    id: p.id,
    total_hours: Number(p.totalHours),
    total_mileage: Number(p.totalMileage),
    total_fixed: Number(p.totalFixed),
    total_terms: Number(p.totalTerms),
    total_purchase: Number(p.totalPurchase),
    total_advance_deposit: Number(p.totalAdvanceDeposit),
    total_future: Number(p.totalFuture),
    simplicate_url: null,
    project: projectSimpleV2(p.project),
    created_at: v2DateTime(p.createdAt),
    updated_at: v2DateTime(p.updatedAt),
  }),
  conformance: false,
});

/** reference: ReverseInvoice (the installments of fixed-price services, as invoice terms) */
export const reverseInvoiceV2 = v2Resource<ReverseInvoice>({
  path: 'projects/reverseinvoice',
  procedures: (c) => c.invoices.reverseinvoice,
  names,
  read: (r) => ({
    id: r.id,
    status: r.status,
    date: r.expirationDate,
    invoice_number: r.invoice && 'invoiceNumber' in r.invoice ? r.invoice.invoiceNumber : null,
    price: r.price === null ? null : Number(r.price),
    label: r.name,
    project: projectSimpleV2(r.project),
    // without the invoices right the invoice is {id, name} (rights through relations)
    invoice:
      r.invoice && 'status' in r.invoice
        ? {
            id: r.invoice.id,
            invoice_number: r.invoice.invoiceNumber,
            invoice_date: r.invoice.invoiceDate,
            status: { id: r.invoice.status, name: r.invoice.status },
          }
        : r.invoice,
  }),
  conformance: false,
});

/** invoices/documenttype: the document types meant for invoices. */
export const invoiceDocumentTypeV2 = areaDocumentTypeV2('invoices/documenttype', (c) => c.invoices.documenttype);
