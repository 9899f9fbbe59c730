import type { ResourceDefinition } from '../shared/resources/definition.js';
import { createSale } from './create-sale.js';
import { deleteSale } from './delete-sale.js';
import { type DuplicateSaleInput, duplicateSale, duplicateSaleSchema } from './duplicate-sale.js';
import { loadSales, type SaleRow } from './sale.load.js';
import { type CreateSaleInput, createSaleSchema, type UpdateSaleInput, updateSaleSchema } from './sale.schema.js';
import { saleSql } from './sale.sql.js';
import { saleV2, saleV3 } from './sale.views.js';
import { updateSale } from './update-sale.js';

/** v2 sales/sales: CRUD, custom fields, linked projects and POST /{id}/duplicate; guarded by the `sales` right. */
export const saleResource: ResourceDefinition<SaleRow, CreateSaleInput, UpdateSaleInput> = {
  name: 'sales/sales',
  entityType: 'sale',
  module: 'sales',
  sql: saleSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: loadSales,
  views: { v2: saleV2, v3: saleV3 },
  create: { schema: createSaleSchema, run: createSale },
  update: { schema: updateSaleSchema, run: updateSale },
  remove: deleteSale,
  actions: [
    {
      name: 'duplicate',
      method: 'POST',
      schema: duplicateSaleSchema,
      run: (ctx, id, input) => duplicateSale(ctx, id, input as DuplicateSaleInput),
    },
  ],
};
