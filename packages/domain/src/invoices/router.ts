import { z } from 'zod';
import { moduleProcedure, router } from '../trpc.js';
import { createInvoiceDraftRequest } from './draft-request/create-invoice-draft-request.js';
import { getInvoiceDraftRequest } from './draft-request/get-invoice-draft-request.js';
import { createInvoiceDraftRequestInput } from './draft-request/invoice-draft-request.schema.js';

export const invoicesRouter = router({
  invoiceDraftRequest: router({
    create: moduleProcedure('invoices', 'write')
      .input(createInvoiceDraftRequestInput)
      .mutation(({ ctx, input }) => createInvoiceDraftRequest(ctx, input)),
    get: moduleProcedure('invoices', 'read')
      .input(z.object({ id: z.string().min(1) }))
      .query(({ ctx, input }) => getInvoiceDraftRequest(ctx, input.id)),
  }),
});
