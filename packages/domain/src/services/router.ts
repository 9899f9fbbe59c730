import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router } from '../trpc.js';
import { defaultServiceResource } from './defaultservice/defaultservice.resource.js';

export const servicesResources: AnyResource[] = [defaultServiceResource];

export const servicesRouter = router({
  defaultservice: resourceRouter(defaultServiceResource),
});
