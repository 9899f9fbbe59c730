import { router } from '../trpc.js';
import { employeeRouter } from './employee/employee.router.js';

export const hrmRouter = router({
  employee: employeeRouter,
});
