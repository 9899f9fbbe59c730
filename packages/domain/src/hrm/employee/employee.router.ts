import {
  entityCreate,
  entityCreateCommand,
  entityDelete,
  entityQueries,
  entityUpdate,
  entityUpdateCommand,
  idInputSchema,
} from '../../shared/entity/index.js';
import { moduleProcedure, router } from '../../trpc.js';
import { removeEmployee } from './employee-deletion.js';
import { employee } from './employee.entity.js';
import { createEmployeeInput, updateEmployeeInput } from './employee.schema.js';
import { createEmployee, updateEmployee } from './employee.write.js';
import { endEmployment } from './end-employment.js';

/** Employees: the queries derived from the entity, create, update, delete (refused while referred to), end of employment. */
export const employeeRouter = router({
  ...entityQueries(employee),
  create: entityCreate(employee, createEmployeeInput, createEmployee),
  update: entityUpdate(employee, updateEmployeeInput, updateEmployee),
  delete: entityDelete(employee, removeEmployee),
  /** v3 employee.create / employee.edit: the same writes, answering the employee */
  createCommand: entityCreateCommand(employee, createEmployeeInput, createEmployee),
  edit: entityUpdateCommand(employee, updateEmployeeInput, updateEmployee),
  endEmployment: moduleProcedure('hrm', 'write')
    .input(idInputSchema)
    .output(employee.schema)
    .mutation(({ ctx, input }) => endEmployment(ctx, input.id)),
});
