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
