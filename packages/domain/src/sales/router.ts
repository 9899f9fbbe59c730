import type { AnyResource } from '../shared/resources/definition.js';
import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../shared/entity/index.js';
import { router } from '../trpc.js';
import { saleCustomField, saleCustomFieldGroup } from './sale-custom-field.entity.js';
import {
  createSaleCustomField,
  createSaleCustomFieldInput,
  updateSaleCustomField,
  updateSaleCustomFieldInput,
} from './sale-custom-field.write.js';
import { saleRouter } from './sale.router.js';
import { quoteRouter, saleServiceRouter, salesLookupRouters } from './sales.router.js';

/** The sales module: sales, their services and quotes, the lookups, and the custom-field definitions and groups of sales. */
export const salesRouter = router({
  sales: saleRouter,
  salescustomfields: router({
    ...entityQueries(saleCustomField),
    create: entityCreate(saleCustomField, createSaleCustomFieldInput, createSaleCustomField),
    update: entityUpdate(saleCustomField, updateSaleCustomFieldInput, updateSaleCustomField),
    delete: entityDelete(saleCustomField),
  }),
  salescustomfieldgroups: router(entityQueries(saleCustomFieldGroup)),
  service: saleServiceRouter,
  quote: quoteRouter,
  ...salesLookupRouters,
});

/** Sales are declared as entities now; nothing of sales is mounted from the earlier registry. */
export const salesResources: AnyResource[] = [];
