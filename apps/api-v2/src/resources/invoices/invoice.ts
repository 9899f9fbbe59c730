import type { Invoice, InvoiceState } from '@bo/domain/invoices/invoice/invoice.entity';
import type { Payment } from '@bo/domain/invoices/payment/payment.entity';
import { vatClassV2 } from '../sales/service.js';
import { organizationSimpleV2, personSimpleV2, projectSimpleV2 } from '../shared/simple.js';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { paymentTermV2 } from './lookups.js';

/** v2 names of invoices/invoice that are not the snake_case of the domain's (a line's `amount` is its quantity) */
const names = v2Names({
  date: 'invoiceDate',
  invoice_lines: 'lines',
  service_id: 'projectServiceId',
  amount: 'quantity',
  total_excluding_vat: 'totalExcl',
  total_including_vat: 'totalIncl',
  total_outstanding: 'totalOutstanding',
});

/** The reference's statuses: Concept, Sent, Overdue, Paid (a credited invoice is settled: Paid; status_key says which). */
const V2_STATUS: Record<InvoiceState, string> = {
  draft: 'Concept',
  sent: 'Sent',
  partially_paid: 'Sent',
  overdue: 'Overdue',
  paid: 'Paid',
  credited: 'Paid',
};

const num = (s: string | null) => (s === null ? null : Number(s));
const simple = (id: string | null) => (id ? { id } : null);

/**
 * invoices/invoice read (reference: GetInvoice), with the lines carrying service and
 * project ids, exact totals (JSON numbers of at most 2 decimals), the computed reminder,
 * and beside the reference: status_key, kind, due_date, total_paid, vat per class.
 */
export function invoiceV2(i: Invoice): Record<string, unknown> {
  return {
    id: i.id,
    contact_id: null,
    payment_term: i.paymentTerm ? paymentTermV2(i.paymentTerm) : null,
    invoice_lines: i.lines.map((l) => ({
      id: l.id,
      description: l.description,
      revenue_group: l.revenueGroup ? { id: l.revenueGroup.id, label: l.revenueGroup.label } : null,
      revenue_group_id: l.revenueGroupId,
      default_service_id: null,
      vat_class: vatClassV2(l.vatClass),
      vat_percentage: num(l.vatPercentage),
      total_vat: num(l.vatAmount),
      service_id: l.projectServiceId,
      project_id: l.projectId,
      date: l.lineDate,
      amount: num(l.quantity),
      price: num(l.price),
      total: num(l.amount),
      source_type: l.sourceType,
      created_at: v2DateTime(l.createdAt),
      updated_at: v2DateTime(l.updatedAt),
    })),
    invoice_number: i.invoiceNumber,
    status: V2_STATUS[i.state],
    status_key: i.state,
    kind: i.kind,
    total_excluding_vat: num(i.totalExcl),
    total_vat: num(i.totalVat),
    total_including_vat: num(i.totalIncl),
    total_outstanding: num(i.totalOutstanding),
    total_paid: num(i.totalPaid),
    vat: i.vatByClass.map((v) => ({
      vat_class_id: v.vatClassId,
      percentage: num(v.percentage),
      base: num(v.base),
      vat: num(v.vat),
    })),
    organization: organizationSimpleV2(i.organization),
    person: personSimpleV2(i.person),
    my_organization_profile: simple(i.myOrganizationProfileId),
    subscription_cycle: null,
    project: projectSimpleV2(i.project),
    projects: i.projects.map(projectSimpleV2),
    sending_method: 'email',
    simplicate_url: null,
    created_at: v2DateTime(i.createdAt),
    updated_at: v2DateTime(i.updatedAt),
    sent_at: v2DateTime(i.sentAt),
    reminder: i.reminder
      ? {
          set: { id: i.reminder.setId, label: i.reminder.setLabel, disabled: i.reminder.disabled },
          status: i.reminder.current?.label ?? 'none',
          paused: i.reminder.disabled,
          next_action: i.reminder.next ? `${i.reminder.next.label} on ${i.reminder.next.date}` : null,
          days_overdue: i.reminder.daysOverdue,
        }
      : null,
    composition_type: 'lines',
    my_organization_profile_id: i.myOrganizationProfileId,
    organization_id: i.organizationId,
    person_id: i.personId,
    date: i.invoiceDate,
    due_date: i.dueDate,
    subject: i.subject,
    reference: i.reference,
    project_id: i.projectId,
    comments: i.comments,
    credited_invoice_id: i.creditedInvoiceId,
    reminder_set_id: i.reminderSetId,
  };
}

/**
 * The v2 body in domain terms: `date` is the invoice date (in filters too), a line's `date` its date and
 * `vat_class` may come as `{id}`; `status_id` of the Sent status sends the draft.
 */
function input(body: unknown): unknown {
  const data = names.input(body) as Record<string, unknown>;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
  if (Array.isArray(data.lines)) {
    data.lines = data.lines.map((l: unknown) => {
      if (!l || typeof l !== 'object') return l;
      const line = { ...(l as Record<string, unknown>) };
      if ('invoiceDate' in line) {
        line.lineDate = line.invoiceDate;
        delete line.invoiceDate;
      }
      const vat = line.vatClass as { id?: unknown } | null | undefined;
      if (vat && typeof vat === 'object' && !('vatClassId' in line)) line.vatClassId = vat.id;
      delete line.vatClass;
      return line;
    });
  }
  return data;
}

export const invoiceV2Resource = v2Resource<Invoice>({
  path: 'invoices/invoice',
  procedures: (c) => c.invoices.invoice,
  names: { ...names, input },
  read: invoiceV2,
  // a fresh environment has no invoices: tests/invoicing-v2.test.ts checks the shape
  conformance: false,
});

const paymentNames = v2Names();

/** invoices/payment (reference: GetPayment, Payment), with the overpayment mark. */
export const paymentV2Resource = v2Resource<Payment>({
  path: 'invoices/payment',
  procedures: (c) => c.invoices.payment,
  names: paymentNames,
  methods: { delete: false },
  read: (p) => ({
    id: p.id,
    invoice_id: p.invoiceId,
    date: p.date,
    amount: Number(p.amount),
    is_overpayment: p.isOverpayment,
    description: p.description,
    created_at: v2DateTime(p.createdAt),
    updated_at: v2DateTime(p.updatedAt),
  }),
  conformance: false,
});
