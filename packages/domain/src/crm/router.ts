import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router } from '../trpc.js';
import { organizationResource } from './organization/organization.resource.js';

export const crmResources: AnyResource[] = [organizationResource];

export const crmRouter = router({
  organization: resourceRouter(organizationResource),
});
