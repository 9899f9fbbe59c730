import { z } from 'zod';
import {
  entityCreate,
  entityDelete,
  entityQueries,
  entityUpdate,
  idInputSchema,
  inSqlWrite,
  recordChange,
} from '../shared/entity/index.js';
import { NotFoundError } from '../shared/errors.js';
import { moduleProcedure, router } from '../trpc.js';
import { areaDocumentRouters, DOCUMENT_AREAS } from '../documents/area-documents.js';
import {
  quoteStatus,
  quoteTemplate,
  revenueGroup,
  salesFilter,
  salesProgress,
  salesReason,
  salesSource,
  salesStatus,
  vatClass,
} from './lookups/lookups.entity.js';
import {
  createQuoteTemplate,
  createQuoteTemplateInput,
  updateQuoteTemplate,
  updateQuoteTemplateInput,
} from './lookups/quote-template.write.js';
import { createQuote } from './quote/create-quote.js';
import { quote } from './quote/quote.entity.js';
import { createQuoteInput, quoteEmailInput, updateQuoteInput } from './quote/quote.schema.js';
import { acceptQuote, sendQuote } from './quote/quote-commands.js';
import { updateQuote } from './quote/update-quote.js';
import { saleService } from './service/sale-service.entity.js';
import { createSaleServiceInput, updateSaleServiceInput } from './service/sale-service.schema.js';
import { copySaleService, createSaleService, updateSaleService } from './service/sale-service.write.js';

const idOutput = z.object({ id: z.string() });

/** Sales services (v2 sales/service): CRUD and duplicate. */
export const saleServiceRouter = router({
  ...entityQueries(saleService),
  create: entityCreate(saleService, createSaleServiceInput, createSaleService),
  update: entityUpdate(saleService, updateSaleServiceInput, updateSaleService),
  delete: entityDelete(saleService),
  duplicate: moduleProcedure('sales', 'write')
    .input(idInputSchema.extend({ data: z.object({}).optional() }))
    .output(idOutput)
    .mutation(({ ctx, input }) =>
      inSqlWrite(ctx, async (w) => {
        if (!(await w.sql.lockForUpdate('sale_service', input.id))) throw new NotFoundError('saleservice', input.id);
        const id = await copySaleService(w.sql, input.id, null, w.now);
        await recordChange(w, saleService, id, 'created', false);
        return { id };
      }),
    ),
});

/** Quotes: CRUD with service groups and totals, the send (quoteemail) and the acceptance. */
export const quoteRouter = router({
  ...entityQueries(quote),
  create: entityCreate(quote, createQuoteInput, createQuote),
  update: entityUpdate(quote, updateQuoteInput, updateQuote),
  delete: entityDelete(quote),
  send: moduleProcedure('sales', 'write')
    .input(idInputSchema.extend({ data: quoteEmailInput }))
    .output(idOutput)
    .mutation(({ ctx, input }) => sendQuote(ctx, input.id, input.data)),
  accept: moduleProcedure('sales', 'write')
    .input(idInputSchema.extend({ data: z.object({}).optional() }))
    .output(idOutput)
    .mutation(({ ctx, input }) => acceptQuote(ctx, input.id)),
});

/** The sales lookups; quote templates are written too. */
export const salesLookupRouters = {
  salesstatus: router(entityQueries(salesStatus)),
  salesprogress: router(entityQueries(salesProgress)),
  salessource: router(entityQueries(salesSource)),
  salesreason: router(entityQueries(salesReason)),
  salesfilters: router(entityQueries(salesFilter)),
  revenuegroup: router(entityQueries(revenueGroup)),
  vatclass: router(entityQueries(vatClass)),
  quotestatus: router(entityQueries(quoteStatus)),
  ...areaDocumentRouters(DOCUMENT_AREAS.sales),
  quotetemplate: router({
    ...entityQueries(quoteTemplate),
    create: entityCreate(quoteTemplate, createQuoteTemplateInput, createQuoteTemplate),
    update: entityUpdate(quoteTemplate, updateQuoteTemplateInput, updateQuoteTemplate),
    delete: entityDelete(quoteTemplate),
  }),
};
