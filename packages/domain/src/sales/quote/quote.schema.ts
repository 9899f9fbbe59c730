import { z } from 'zod';
import { dateInput } from '../../shared/numbers.js';
import { parseScaled } from './decimal.js';
import { SERVICE_GROUP_TYPES } from './quote-totals.js';

/** Write shape of a quote, in domain terms (reference: PostQuote, with service_groups of 2024-11). */
const id = z.string().min(1).max(255);

/** an exact decimal of at most 4 decimals (quantities and prices are kept at that scale) */
const fourDecimals = (schema: z.ZodNumber) =>
  schema.refine(
    (n) => {
      try {
        parseScaled(n, 4);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'at most 4 decimals' },
  );

export const quoteServiceInput = z.object({
  /** a service of the sale: name, quantity, price and VAT class default to its own */
  saleServiceId: id.nullable().optional(),
  name: z.string().trim().min(1).max(255).optional(),
  quantity: fourDecimals(z.number().finite().min(0, 'a quantity cannot be negative').max(1e9)).optional(),
  price: fourDecimals(z.number().finite().min(-1e10).max(1e10)).optional(),
  vatClassId: id.nullable().optional(),
  /** in an optional or single group: whether the customer chose it */
  chosen: z.boolean().optional(),
});
export type QuoteServiceInput = z.infer<typeof quoteServiceInput>;

export const serviceGroupInput = z.object({
  name: z.string().trim().min(1).max(255),
  type: z.enum(SERVICE_GROUP_TYPES).default('all_included'),
  services: z.array(quoteServiceInput).max(200),
});
export type ServiceGroupInput = z.infer<typeof serviceGroupInput>;

const fields = {
  quoteTemplateId: id.nullable().optional(),
  quoteSubject: z.string().max(255).nullable().optional(),
  customerReference: z.string().max(255).nullable().optional(),
  json: z.string().max(1_000_000).nullable().optional(),
  quoteDate: dateInput.optional(),
  validDays: z.number().int().min(0).max(3650).nullable().optional(),
  sendType: z.enum(['printer', 'email', 'email_approval']).nullable().optional(),
  isBlocked: z.boolean().optional(),
  /** the whole set of groups: replaces the quote's groups and lines (a draft only) */
  serviceGroups: z.array(serviceGroupInput).max(50).optional(),
};

export const createQuoteInput = z.object({ saleId: id, ...fields });
export const updateQuoteInput = z.object({
  ...fields,
  /** a step of the flow: draft → sent → accepted or rejected */
  quoteStatusId: id.optional(),
});
export type CreateQuoteInput = z.infer<typeof createQuoteInput>;
export type UpdateQuoteInput = z.infer<typeof updateQuoteInput>;

/** Sending a quote (v2 sales/quoteemail): recorded, and the quote becomes sent; no mail leaves the service. */
export const quoteEmailInput = z.object({
  subject: z.string().trim().min(1).max(255),
  body: z.string().max(100_000).nullable().optional(),
  to: z.array(z.email()).min(1).max(50),
  cc: z.array(z.email()).max(50).optional(),
  bcc: z.array(z.email()).max(50).optional(),
  attachments: z.array(z.unknown()).max(0, 'attachments are not sent by this service').optional(),
});
export type QuoteEmailInput = z.infer<typeof quoteEmailInput>;
