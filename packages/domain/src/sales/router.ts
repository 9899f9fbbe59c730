import type { AnyResource } from '../shared/resources/definition.js';
import { router } from '../trpc.js';
import { saleRouter } from './sale.router.js';
import { quoteRouter, saleServiceRouter, salesLookupRouters } from './sales.router.js';

/** The sales module: sales, their services and quotes, the lookups (the custom-field definitions of sales are the customfields module's). */
export const salesRouter = router({
  sales: saleRouter,
  service: saleServiceRouter,
  quote: quoteRouter,
  ...salesLookupRouters,
});

/** Sales are declared as entities now; nothing of sales is mounted from the earlier registry. */
export const salesResources: AnyResource[] = [];
