import { entityQueries } from '../shared/entity/index.js';
import type { AnyResource } from '../shared/resources/definition.js';
import { router } from '../trpc.js';
import { costType } from './coststype/coststype.entity.js';

export const costsResources: AnyResource[] = [];

export const costsRouter = router({
  coststype: router(entityQueries(costType)),
});
