import type { Quote } from '@bo/domain/sales/quote/quote.entity';
import type { Sale } from '@bo/domain/sales/sale.entity';
import { z } from 'zod';
import { commandEndpoint, getEndpoint, listEndpoint, type NamedSchema } from './types.js';

const named = z.object({ id: z.string(), name: z.string().nullable() });
const labelled = z.object({ id: z.string(), label: z.string() });

/** v3 shape of a sale. */
const SaleV3 = z.object({
  id: z.string(),
  subject: z.string(),
  organization: named.nullable(),
  person: named.nullable(),
  contactId: z.string().nullable(),
  responsibleEmployee: named.nullable(),
  status: labelled.nullable(),
  progress: labelled.extend({ chanceToScore: z.number().nullable() }).nullable(),
  source: named.nullable(),
  reason: named.extend({ blocked: z.boolean() }).nullable(),
  startDate: z.string().nullable(),
  expectedClosingDate: z.string().nullable(),
  expectedRevenue: z.number().nullable(),
  chanceToScore: z.number().nullable(),
  note: z.string().nullable(),
  divergentPaymentTermId: z.string().nullable(),
  linkedProjectIds: z.array(z.string()),
  customFields: z.array(z.object({ name: z.string(), value: z.string().nullable() })),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const saleSchema: NamedSchema = { name: 'Sales.Sale', schema: SaleV3 };

export function saleV3(s: Sale): z.infer<typeof SaleV3> {
  const person = s.person ? { id: s.person.id, name: 'fullName' in s.person ? s.person.fullName : null } : null;
  return {
    id: s.id,
    subject: s.subject,
    organization: s.organization ? { id: s.organization.id, name: s.organization.name } : null,
    person,
    contactId: s.contactId,
    responsibleEmployee: s.responsibleEmployee ? { id: s.responsibleEmployee.id, name: s.responsibleEmployee.name } : null,
    status: s.status ? { id: s.status.id, label: s.status.label } : null,
    progress: s.progress ? { id: s.progress.id, label: s.progress.label, chanceToScore: s.progress.chanceToScore } : null,
    source: s.source ? { id: s.source.id, name: s.source.name } : null,
    reason: s.reason ? { id: s.reason.id, name: s.reason.name, blocked: s.reason.blocked } : null,
    startDate: s.startDate,
    expectedClosingDate: s.expectedClosingDate,
    expectedRevenue: s.expectedRevenue,
    chanceToScore: s.chanceToScore,
    note: s.note,
    divergentPaymentTermId: s.divergentPaymentTermId,
    linkedProjectIds: s.linkedProjects.map((l) => l.id),
    customFields: s.customFields.map((c) => ({ name: c.name, value: c.value })),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

const amounts = z.object({
  excl: z.string(),
  vat: z.string(),
  incl: z.string(),
  vatByClass: z.array(z.object({ vatClassId: z.string().nullable(), percentage: z.string(), base: z.string(), vat: z.string() })),
});
const GROUP_TYPES = ['all_included', 'multiple_optional', 'single_required', 'single_optional'] as const;

/** v3 shape of a quote: its groups with their lines and totals, and the grand totals (exact decimal text). */
const QuoteV3 = z.object({
  id: z.string(),
  saleId: z.string().nullable(),
  quoteNumber: z.string(),
  quoteDate: z.string().nullable(),
  subject: z.string().nullable(),
  customerReference: z.string().nullable(),
  status: z.enum(['draft', 'sent', 'accepted', 'rejected']).nullable(),
  sentAt: z.iso.datetime().nullable(),
  projectId: z.string().nullable(),
  serviceGroups: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      type: z.enum(GROUP_TYPES),
      services: z.array(
        z.object({
          id: z.string(),
          saleServiceId: z.string().nullable(),
          name: z.string(),
          quantity: z.string(),
          price: z.string(),
          total: z.string(),
          vatClassId: z.string().nullable(),
          chosen: z.boolean(),
        }),
      ),
      totals: amounts.nullable(),
    }),
  ),
  grandTotals: amounts.nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const quoteSchema: NamedSchema = { name: 'Sales.Quote', schema: QuoteV3 };

export function quoteV3(q: Quote): z.infer<typeof QuoteV3> {
  return {
    id: q.id,
    saleId: q.sale?.id ?? null,
    quoteNumber: q.quoteNumber,
    quoteDate: q.quoteDate,
    subject: q.quoteSubject,
    customerReference: q.customerReference,
    status: (q.quoteStatus?.key as z.infer<typeof QuoteV3>['status']) ?? null,
    sentAt: q.sentAt ? q.sentAt.toISOString() : null,
    projectId: q.projectId,
    serviceGroups: q.serviceGroups.map((g) => ({
      id: g.id,
      name: g.name,
      type: g.type,
      services: g.services.map((l) => ({
        id: l.id,
        saleServiceId: l.saleServiceId,
        name: l.name,
        quantity: l.quantity,
        price: l.price,
        total: l.total,
        vatClassId: l.vatClass?.id ?? null,
        chosen: l.chosen,
      })),
      totals: q.totals.groups[g.id] ?? null,
    })),
    grandTotals: q.totals.grandTotals ?? null,
    createdAt: q.createdAt.toISOString(),
    updatedAt: q.updatedAt.toISOString(),
  };
}

const quoteService = z.object({
  saleServiceId: z.string().nullable().optional(),
  name: z.string().optional(),
  quantity: z.number().optional(),
  price: z.number().optional(),
  vatClassId: z.string().nullable().optional(),
  chosen: z.boolean().optional(),
});
const serviceGroup = z.object({
  name: z.string(),
  type: z.enum(GROUP_TYPES).optional(),
  services: z.array(quoteService),
});
const quoteFields = {
  quoteTemplateId: z.string().nullable().optional(),
  quoteSubject: z.string().nullable().optional(),
  customerReference: z.string().nullable().optional(),
  validDays: z.number().int().nullable().optional(),
  serviceGroups: z.array(serviceGroup).optional(),
};
const createQuoteRequest: NamedSchema = {
  name: 'Sales.Quote.Create',
  schema: z.object({ saleId: z.string(), ...quoteFields }),
};
const editQuoteRequest: NamedSchema = { name: 'Sales.Quote.Edit', schema: z.object(quoteFields) };
const emptyRequest: NamedSchema = { name: 'Sales.Empty', schema: z.object({}) };
const createdSchema: NamedSchema = { name: 'Sales.Created', schema: z.object({ id: z.string() }) };
const convertedSchema: NamedSchema = {
  name: 'Sales.Converted',
  schema: z.object({ saleId: z.string(), projectId: z.string() }),
};

export const saleEndpoints = {
  'sale.list': listEndpoint<Sale>({
    call: (c) => c.sales.sales.list,
    filters: { subject: 'subject', organizationId: 'organizationId', personId: 'personId', statusId: 'statusId' },
    map: saleV3,
    doc: { summary: 'Sales, paged', response: saleSchema, errors: [400, 403] },
  }),
  'sale.get': getEndpoint<Sale>({
    call: (c) => c.sales.sales.get,
    map: saleV3,
    doc: { summary: 'One sale', response: saleSchema, errors: [403, 404] },
  }),
  'sale.convertToProject': commandEndpoint<Record<string, unknown>, { id: string }, { id: string; projectId: string }>({
    call: (c) => c.sales.sales.convertToProject,
    withId: true,
    mapInput: (_body, id) => ({ id: id as string }),
    map: (r) => ({ saleId: r.id, projectId: r.projectId }),
    status: 201,
    doc: {
      summary: 'Creates the project and its services from the sale’s accepted quote, in one transaction',
      request: emptyRequest,
      response: convertedSchema,
      errors: [400, 403, 404, 409, 422],
    },
  }),
  'quote.get': getEndpoint<Quote>({
    call: (c) => c.sales.quote.get,
    map: quoteV3,
    doc: { summary: 'One quote with its service groups and totals', response: quoteSchema, errors: [403, 404] },
  }),
  'quote.create': commandEndpoint<Record<string, unknown>, { data: never }, { id: string }>({
    call: (c) => c.sales.quote.create,
    mapInput: (body) => ({ data: body as never }),
    status: 201,
    doc: {
      summary: 'Creates a draft quote of a sale',
      request: createQuoteRequest,
      response: createdSchema,
      errors: [400, 403, 422],
    },
  }),
  'quote.edit': commandEndpoint<Record<string, unknown>, { id: string; data: never }, { id: string }>({
    call: (c) => c.sales.quote.update,
    withId: true,
    mapInput: (body, id) => ({ id: id as string, data: body as never }),
    map: async (r, c) => quoteV3(await c.sales.quote.get({ id: r.id })),
    status: 200,
    doc: {
      summary: 'Changes a quote (its groups while it is a draft)',
      request: editQuoteRequest,
      response: quoteSchema,
      errors: [400, 403, 404, 422],
    },
  }),
  'quote.accept': commandEndpoint<Record<string, unknown>, { id: string }, { id: string }>({
    call: (c) => c.sales.quote.accept,
    withId: true,
    mapInput: (_body, id) => ({ id: id as string }),
    map: async (r, c) => quoteV3(await c.sales.quote.get({ id: r.id })),
    status: 200,
    doc: { summary: 'The customer accepted a sent quote', request: emptyRequest, response: quoteSchema, errors: [403, 404, 422] },
  }),
};
