import type {
  QuoteStatus,
  QuoteTemplate,
  RevenueGroup,
  SalesFilter,
  SalesProgress,
  SalesReason,
  SalesSource,
  SalesStatus,
} from '@bo/domain/sales/lookups/lookups.entity';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names();

/** reference: SalesStatus */
export const salesStatusV2 = v2Resource<SalesStatus>({
  path: 'sales/salesstatus',
  procedures: (c) => c.sales.salesstatus,
  names,
  read: (s) => ({ id: s.id, label: s.label }),
});

/** reference: SalesProgress */
export const salesProgressV2 = v2Resource<SalesProgress>({
  path: 'sales/salesprogress',
  procedures: (c) => c.sales.salesprogress,
  names,
  read: (p) => ({ id: p.id, label: p.label, color: p.color, chance_to_score: p.chanceToScore, position: p.position }),
});

/** reference: SalesSource */
export const salesSourceV2 = v2Resource<SalesSource>({
  path: 'sales/salessource',
  procedures: (c) => c.sales.salessource,
  names,
  read: (s) => ({ id: s.id, name: s.name }),
});

/** reference: SalesReason, with blocked (2023-06); the reference's ResultSalesReason is not defined in it */
export const salesReasonV2 = v2Resource<SalesReason>({
  path: 'sales/salesreason',
  procedures: (c) => c.sales.salesreason,
  names,
  read: (r) => ({ id: r.id, name: r.name, blocked: r.blocked }),
  conformance: false,
});

/** saved sales filters with their value options (2023-06); the reference shows no definition */
export const salesFilterV2 = v2Resource<SalesFilter>({
  path: 'sales/salesfilters',
  procedures: (c) => c.sales.salesfilters,
  names,
  read: (f) => ({ id: f.id, name: f.name, key: f.key, values: f.values }),
  conformance: false,
});

/** reference: RevenueGroup */
export const revenueGroupV2 = v2Resource<RevenueGroup>({
  path: 'sales/revenuegroup',
  procedures: (c) => c.sales.revenuegroup,
  names,
  read: (g) => ({ id: g.id, label: g.label }),
});

/** reference: QuoteStatus */
export const quoteStatusV2 = v2Resource<QuoteStatus>({
  path: 'sales/quotestatus',
  procedures: (c) => c.sales.quotestatus,
  names,
  read: (s) => ({ id: s.id, label: s.label, color: s.color }),
});

/** reference: QuoteTemplate; written with PostQuoteTemplate */
export const quoteTemplateV2 = v2Resource<QuoteTemplate>({
  path: 'sales/quotetemplate',
  procedures: (c) => c.sales.quotetemplate,
  names,
  read: (t) => ({
    id: t.id,
    type: t.type,
    html: t.html,
    is_blocked: t.isBlocked,
    json: t.json,
    name: t.name,
    created_at: v2DateTime(t.createdAt),
    updated_at: v2DateTime(t.updatedAt),
  }),
});
