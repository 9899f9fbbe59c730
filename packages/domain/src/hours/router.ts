import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router } from '../trpc.js';
import { hourTypeResource } from './hourstype/hourstype.resource.js';

export const hoursResources: AnyResource[] = [hourTypeResource];

export const hoursRouter = router({
  hourstype: resourceRouter(hourTypeResource),
});
