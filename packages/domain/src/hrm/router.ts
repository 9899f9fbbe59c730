import type { AnyResource } from '../shared/resources/definition.js';
import { resourceRouter } from '../shared/resources/router.js';
import { router } from '../trpc.js';
import { employeeResource } from './employee/employee.resource.js';

export const hrmResources: AnyResource[] = [employeeResource];

export const hrmRouter = router({
  employee: resourceRouter(employeeResource),
});
