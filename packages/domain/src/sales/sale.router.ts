import { z } from 'zod';
import { entityCreate, entityDelete, entityQueries, entityUpdate, idInputSchema } from '../shared/entity/index.js';
import { moduleProcedure, router } from '../trpc.js';
import { convertSaleToProject } from './convert-to-project.js';
import { createSale } from './create-sale.js';
import { deleteSale } from './delete-sale.js';
import { duplicateSale, duplicateSaleInput } from './duplicate-sale.js';
import { sale } from './sale.entity.js';
import { createSaleInput, updateSaleInput } from './sale.schema.js';
import { updateSale } from './update-sale.js';

/** Sales: the queries derived from the entity, its create, update and delete, and duplicate. */
export const saleRouter = router({
  ...entityQueries(sale),
  create: entityCreate(sale, createSaleInput, createSale),
  update: entityUpdate(sale, updateSaleInput, updateSale),
  delete: entityDelete(sale, deleteSale),
  duplicate: moduleProcedure('sales', 'write')
    .input(idInputSchema.extend({ data: duplicateSaleInput }))
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => duplicateSale(ctx, input.id, input.data)),
  convertToProject: moduleProcedure('sales', 'write')
    .input(idInputSchema.extend({ data: z.object({}).optional() }))
    .output(z.object({ id: z.string(), projectId: z.string() }))
    .mutation(({ ctx, input }) => convertSaleToProject(ctx, input.id)),
});
