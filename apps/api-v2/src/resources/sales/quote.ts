import { paymentTermV2 } from '../invoices/lookups.js';
import type { Quote } from '@bo/domain/sales/quote/quote.entity';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2RowOperation, v2Resource } from '../v2-resource.js';
import { vatClassV2 } from './service.js';

/** v2 names of sales/quote that are not the snake_case of the domain's */
const names = v2Names({
  sales_id: 'saleId',
  quotetemplate_id: 'quoteTemplateId',
  quotestatus_id: 'quoteStatusId',
  service_id: 'saleServiceId',
});

type Amounts = Quote['totals']['grandTotals'];

/** totals in v2 names: the VAT per class keyed by the class (`vat` is an object in the reference) */
function amountsV2(t: Amounts | undefined): Record<string, unknown> | null {
  if (!t) return null;
  return {
    total_excl: t.excl,
    total_vat: t.vat,
    total_incl: t.incl,
    vat: vatV2(t),
  };
}

function vatV2(t: Amounts): Record<string, unknown> {
  return Object.fromEntries(
    t.vatByClass.map((v) => [
      v.vatClassId ?? 'none',
      { vat_class_id: v.vatClassId, percentage: v.percentage, base: v.base, vat: v.vat },
    ]),
  );
}

/**
 * sales/quote read (reference: GetQuote) with service_groups (2024-11), each with its
 * type and totals (2024-12), and grand_totals (2024-04). Amounts are exact decimal text.
 */
export function quoteV2(q: Quote): Record<string, unknown> {
  const lines = q.serviceGroups.flatMap((g) => g.services);
  return {
    id: q.id,
    quotetemplate: q.quoteTemplate
      ? {
          id: q.quoteTemplate.id,
          type: q.quoteTemplate.type,
          html: q.quoteTemplate.html,
          is_blocked: q.quoteTemplate.isBlocked,
          json: q.quoteTemplate.json,
          name: q.quoteTemplate.name,
          created_at: v2DateTime(q.quoteTemplate.createdAt),
          updated_at: v2DateTime(q.quoteTemplate.updatedAt),
        }
      : null,
    send_type: q.sendType,
    quote_number: q.quoteNumber,
    quote_date: q.quoteDate,
    quotestatus: q.quoteStatus ? { id: q.quoteStatus.id, label: q.quoteStatus.label, color: q.quoteStatus.color } : null,
    json: q.json,
    services: lines.map((l) => ({
      vat_code: null,
      vat_description: null,
      vat_class: vatClassV2(l.vatClass),
      sales_id: q.sale?.id ?? null,
      default_service_id: null,
      name: l.name,
      invoice_method: 'FixedFee',
      amount: Number(l.quantity),
      price: Number(l.price),
      show_itemtype: null,
      total: l.total,
      position: l.position,
      subscription_cycle: null,
      explanation: null,
      track_hours: null,
      track_cost: null,
    })),
    total_excl: q.totalExcl,
    total_incl: q.totalIncl,
    total_vat: q.totalVat,
    vat: q.totals.grandTotals ? vatV2(q.totals.grandTotals) : {},
    grand_totals: amountsV2(q.totals.grandTotals),
    receivers: q.receivers ? { to: q.receivers.to, cc: q.receivers.cc, bcc: q.receivers.bcc } : null,
    valid_days: q.validDays,
    payment_term: q.paymentTerm ? paymentTermV2(q.paymentTerm) : null,
    download_url: null,
    is_sepa_authorization: 0,
    is_outdated: 0,
    is_blocked: q.isBlocked ? 1 : 0,
    created_by: null,
    last_updated_approval_status: null,
    sent_at: v2DateTime(q.sentAt),
    created_at: v2DateTime(q.createdAt),
    updated_at: v2DateTime(q.updatedAt),
    sales_id: q.sale?.id ?? null,
    quote_subject: q.quoteSubject,
    customer_reference: q.customerReference,
    service_groups: q.serviceGroups.map((g) => ({
      id: g.id,
      name: g.name,
      type: g.type,
      position: g.position,
      services: g.services.map((l) => ({
        id: l.id,
        service_id: l.saleServiceId,
        name: l.name,
        quantity: l.quantity,
        price: l.price,
        total: l.total,
        vat_class: vatClassV2(l.vatClass),
        vat_percentage: l.vatPercentage,
        chosen: l.chosen,
        position: l.position,
      })),
      totals: amountsV2(q.totals.groups[g.id]),
    })),
    project_id: q.projectId,
  };
}

/** The v2 body in domain terms: `is_blocked` is an integer in the reference, a flag here. */
function input(body: unknown): unknown {
  const data = names.input(body) as Record<string, unknown>;
  if (data.isBlocked === 0 || data.isBlocked === 1) data.isBlocked = data.isBlocked === 1;
  return data;
}

/** sales/quote: CRUD with service groups and totals; the status follows the flow. */
export const quoteV2Resource = v2Resource<Quote>({
  path: 'sales/quote',
  procedures: (c) => c.sales.quote,
  names: { ...names, input },
  read: quoteV2,
  // a fresh environment has no quotes: tests/sales-full.test.ts checks the shape
  conformance: false,
});

/** the seed also writes /sale/quote and /sale/quote/{id}: the same resource */
export const saleQuoteV2Resource = v2Resource<Quote>({ ...quoteV2Resource, path: 'sale/quote' });

/** PUT sales/quoteemail/{id}: records the send of the quote (no mail leaves) and answers its id. */
export const quoteEmailV2 = v2RowOperation({
  path: 'sales/quoteemail',
  method: 'PUT',
  names,
  call: (c) => c.sales.quote.send,
});
