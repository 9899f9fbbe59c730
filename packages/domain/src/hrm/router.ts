import type { AnyResource } from '../shared/resources/definition.js';
import { router } from '../trpc.js';
import { employeeRouter } from './employee/employee.router.js';

export const hrmResources: AnyResource[] = [];

export const hrmRouter = router({
  employee: employeeRouter,
});
