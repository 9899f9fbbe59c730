import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../../shared/entity/index.js';
import { router } from '../../trpc.js';
import { employee } from './employee.entity.js';
import { createEmployeeInput, updateEmployeeInput } from './employee.schema.js';
import { createEmployee, updateEmployee } from './employee.write.js';

/** Employees: the queries derived from the entity, create, update and delete. */
export const employeeRouter = router({
  ...entityQueries(employee),
  create: entityCreate(employee, createEmployeeInput, createEmployee),
  update: entityUpdate(employee, updateEmployeeInput, updateEmployee),
  delete: entityDelete(employee),
});
