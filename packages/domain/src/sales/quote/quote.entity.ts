import { paymentTermShape } from '../../invoices/lookups/invoice-lookups.entity.js';
import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import {
  quoteStatus,
  quoteStatusShape,
  quoteTemplate,
  quoteTemplateShape,
  vatClass,
  vatClassShape,
} from '../lookups/lookups.entity.js';
import { sale } from '../sale.entity.js';
import { SERVICE_GROUP_TYPES } from './quote-totals.js';
import { targets } from '../../shared/entity/targets.js';

/** A line of a quote: a service with its quantity, price and VAT class, chosen or not. */
export const quoteLine = defineEntity({
  type: 'quoteline',
  table: 'quote_line',
  module: 'sales',
  fields: {
    id: f.id(),
    saleServiceId: f.string({ references: () => targets.saleService }),
    name: f.requiredString(),
    /** exact decimals, as text */
    quantity: f.computed('string', z.string(), (t) => `${t}.quantity::text`),
    price: f.computed('string', z.string(), (t) => `${t}.price::text`),
    /** quantity × price, rounded half up to cents (the totals rule) */
    total: f.computed('string', z.string(), (t) => `round(${t}.quantity * ${t}.price, 2)::text`),
    vatClass: f.ref((): TargetEntity => vatClass, vatClassShape, { column: 'vat_class_id' }),
    vatPercentage: f.computed('string', z.string(), (t) => `${t}.vat_percentage::text`),
    chosen: f.boolean(),
    position: f.requiredInteger(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export const quoteLineShape = z.object({
  id: z.string(),
  saleServiceId: z.string().nullable(),
  name: z.string(),
  quantity: z.string(),
  price: z.string(),
  total: z.string(),
  vatClass: vatClassShape.nullable(),
  vatPercentage: z.string(),
  chosen: z.boolean(),
  position: z.number(),
});

export const quoteServiceGroup = defineEntity({
  type: 'quoteservicegroup',
  table: 'quote_service_group',
  module: 'sales',
  fields: {
    id: f.id(),
    name: f.requiredString(),
    type: f.computed('string', z.enum(SERVICE_GROUP_TYPES), (t) => `${t}.type`),
    position: f.requiredInteger(),
    services: f.many((): TargetEntity => quoteLine, quoteLineShape, {
      remote: 'group_id',
      orderBy: (l) => `${l}.position, ${l}.id`,
    }),
  },
});

export const quoteGroupShape = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(SERVICE_GROUP_TYPES),
  position: z.number(),
  services: z.array(quoteLineShape),
});

const amounts = z.object({
  excl: z.string(),
  vat: z.string(),
  incl: z.string(),
  vatByClass: z.array(z.object({ vatClassId: z.string().nullable(), percentage: z.string(), base: z.string(), vat: z.string() })),
});
export type StoredTotals = z.infer<typeof storedTotalsSchema>;
/** what a write stores beside the quote: the totals of each group (by id) and of the quote */
export const storedTotalsSchema = z.object({
  groups: z.record(z.string(), amounts),
  grandTotals: amounts,
});

/**
 * A quote of a sale, with its service groups and lines. Its totals are computed on
 * every write (quote-totals.ts) and stored, so a page reads them in its one statement.
 */
export const quote = defineEntity({
  type: 'quote',
  table: 'quote',
  module: 'sales',
  nameField: 'quoteNumber',
  fields: {
    id: f.id(),
    sale: f.ref((): TargetEntity => sale, z.object({ id: z.string(), subject: z.string() }), { column: 'sale_id' }),
    quoteTemplate: f.ref((): TargetEntity => quoteTemplate, quoteTemplateShape, { column: 'quote_template_id' }),
    quoteStatus: f.ref((): TargetEntity => quoteStatus, quoteStatusShape, { column: 'quote_status_id' }),
    quoteNumber: f.requiredString(),
    quoteDate: f.date(),
    quoteSubject: f.string(),
    customerReference: f.string(),
    json: f.string(),
    sendType: f.string(),
    validDays: f.integer(),
    isBlocked: f.boolean(),
    sentAt: f.datetime(),
    /** the project the accepted quote was converted into */
    projectId: f.string({ references: () => targets.project }),
    totalExcl: f.computed('string', z.string(), (t) => `${t}.total_excl::text`),
    totalVat: f.computed('string', z.string(), (t) => `${t}.total_vat::text`),
    totalIncl: f.computed('string', z.string(), (t) => `${t}.total_incl::text`),
    totals: f.json(storedTotalsSchema),
    /** who the quote went to: the addresses of its latest send (quoteemail), null until it is sent */
    receivers: f.computed(
      'json',
      z.object({ to: z.array(z.string()), cc: z.array(z.string()), bcc: z.array(z.string()), sentAt: z.string() }).nullable(),
      (t) =>
        `(SELECT jsonb_build_object('to', e."to", 'cc', e.cc, 'bcc', e.bcc, 'sentAt', e.sent_at)
            FROM quote_email e WHERE e.environment_id = ${t}.environment_id AND e.quote_id = ${t}.id
           ORDER BY e.sent_at DESC, e.id DESC LIMIT 1)`,
    ),
    /** the sale's divergent payment term, else the environment's default one */
    paymentTerm: f.computed('json', paymentTermShape.nullable(), (t) => {
      const term = (where: string) =>
        `(SELECT jsonb_build_object('id', p.id, 'name', p.name, 'days', p.days, 'method', p.method)
            FROM payment_term p WHERE p.environment_id = ${t}.environment_id AND ${where} ORDER BY p.id LIMIT 1)`;
      return `COALESCE(${term(`p.id = (SELECT s.divergent_payment_term_id FROM sale s WHERE s.id = ${t}.sale_id)`)}, ${term('p.is_default')})`;
    }),
    serviceGroups: f.many((): TargetEntity => quoteServiceGroup, quoteGroupShape, {
      remote: 'quote_id',
      orderBy: (g) => `${g}.position, ${g}.id`,
    }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Quote = z.infer<typeof quote.schema>;
