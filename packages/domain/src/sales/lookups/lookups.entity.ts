import { costType } from '../../costs/coststype/coststype.entity.js';
import { z } from 'zod';
import { defineEntity, f } from '../../shared/entity/index.js';

/** The sales lookups of an environment (seeded per environment; see reference-data.seed.ts). */
const stamps = () => ({ createdAt: f.createdAt(), updatedAt: f.updatedAt() });

export const salesStatus = defineEntity({
  type: 'salesstatus',
  table: 'sales_status',
  module: 'sales',
  nameField: 'label',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  // label: the system label (OpportunityStatus_open); name: the readable text (docs/fidelity.md)
  fields: { id: f.id(), label: f.requiredString(), name: f.string(), position: f.requiredInteger(), ...stamps() },
});
export type SalesStatus = z.infer<typeof salesStatus.schema>;

export const salesProgress = defineEntity({
  type: 'salesprogress',
  table: 'sales_progress',
  module: 'sales',
  nameField: 'label',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    label: f.requiredString(),
    color: f.string(),
    chanceToScore: f.integer(),
    position: f.requiredInteger(),
    ...stamps(),
  },
});
export type SalesProgress = z.infer<typeof salesProgress.schema>;

export const salesSource = defineEntity({
  type: 'salessource',
  table: 'sales_source',
  module: 'sales',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: { id: f.id(), name: f.requiredString(), ...stamps() },
});
export type SalesSource = z.infer<typeof salesSource.schema>;

/** a blocked reason can no longer be chosen for a sale (2023-06) */
export const salesReason = defineEntity({
  type: 'salesreason',
  table: 'sales_reason',
  module: 'sales',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: { id: f.id(), name: f.requiredString(), blocked: f.boolean(), ...stamps() },
});
export type SalesReason = z.infer<typeof salesReason.schema>;

/** saved sales filters: a key and its value options (2023-06) */
export const salesFilter = defineEntity({
  type: 'salesfilter',
  table: 'sales_filter',
  module: 'sales',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: {
    id: f.id(),
    name: f.requiredString(),
    key: f.requiredString(),
    values: f.json(z.array(z.string())),
    ...stamps(),
  },
});
export type SalesFilter = z.infer<typeof salesFilter.schema>;

export const revenueGroup = defineEntity({
  type: 'revenuegroup',
  table: 'revenue_group',
  module: 'sales',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: { id: f.id(), label: f.requiredString(), ...stamps() },
});
export type RevenueGroup = z.infer<typeof revenueGroup.schema>;

/** a VAT class and its percentage (quote totals compute VAT per class) */
export const vatClass = defineEntity({
  type: 'vatclass',
  table: 'vat_class',
  module: 'sales',
  nameField: 'label',
  defaultSort: [{ path: 'code', dir: 'asc' }],
  fields: {
    id: f.id(),
    code: f.requiredString(),
    label: f.requiredString(),
    /** exact: the totals read it as text */
    percentage: f.computed('string', z.string(), (t) => `${t}.percentage::text`),
    ...stamps(),
  },
});
export type VatClass = z.infer<typeof vatClass.schema>;
export const vatClassShape = z.object({ id: z.string(), code: z.string(), label: z.string(), percentage: z.string() });

/** the steps of the quote flow: draft → sent → accepted or rejected */
export const QUOTE_FLOW = ['draft', 'sent', 'accepted', 'rejected'] as const;
export type QuoteFlowStep = (typeof QUOTE_FLOW)[number];

export const quoteStatus = defineEntity({
  type: 'quotestatus',
  table: 'quote_status',
  module: 'sales',
  nameField: 'label',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    key: f.requiredString(),
    label: f.requiredString(),
    color: f.string(),
    position: f.requiredInteger(),
    ...stamps(),
  },
});
export type QuoteStatus = z.infer<typeof quoteStatus.schema>;
export const quoteStatusShape = z.object({ id: z.string(), key: z.string(), label: z.string(), color: z.string().nullable() });

export const quoteTemplate = defineEntity({
  type: 'quotetemplate',
  table: 'quote_template',
  module: 'sales',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: {
    id: f.id(),
    name: f.requiredString(),
    type: f.string(),
    html: f.string(),
    json: f.string(),
    isBlocked: f.boolean(),
    ...stamps(),
  },
});
export type QuoteTemplate = z.infer<typeof quoteTemplate.schema>;
export const quoteTemplateShape = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string().nullable(),
  html: z.string().nullable(),
  json: z.string().nullable(),
  isBlocked: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

/** cost types as a sales service shows them (the costs area owns the table) */
export const costTypeOfSale: typeof costType = { ...costType, module: 'sales' };

/** hour types as a sales service shows them (the hours area owns the table) */
export const hourTypeOfSale = defineEntity({
  type: 'hourtype',
  table: 'hour_type',
  module: 'sales',
  nameField: 'label',
  fields: {
    id: f.id(),
    label: f.requiredString(),
    type: f.requiredString(),
    tariff: f.decimal(),
    blocked: f.boolean(),
    color: f.string(),
    vatClass: f.ref(() => vatClass, vatClassShape, { column: 'vat_class_id' }),
  },
});
