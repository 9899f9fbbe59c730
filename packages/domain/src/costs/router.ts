import { entityQueries } from '../shared/entity/index.js';
import { router } from '../trpc.js';
import { costType } from './coststype/coststype.entity.js';

export const costsRouter = router({
  coststype: router(entityQueries(costType)),
});
