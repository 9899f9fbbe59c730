import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router } from '../trpc.js';
import { costTypeResource } from './coststype/coststype.resource.js';

export const costsResources: AnyResource[] = [costTypeResource];

export const costsRouter = router({
  coststype: resourceRouter(costTypeResource),
});
