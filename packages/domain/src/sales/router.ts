import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router } from '../trpc.js';
import { saleResource } from './sale.resource.js';

export const salesResources: AnyResource[] = [saleResource];

export const salesRouter = router({
  sales: resourceRouter(saleResource),
});
