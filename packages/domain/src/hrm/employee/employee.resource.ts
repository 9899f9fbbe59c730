import { employeeV2 } from './employee.view.js';
import { SCOPED_ENVIRONMENT, type Models, type SqlModel } from '@bo/db';
import { z } from 'zod';
import { v3DateTime } from '../../shared/format.js';
import { newEntityId } from '../../shared/ids.js';
import { assertReferencesExist } from '../../shared/references.js';
import type { Db, ResourceDefinition, WriteContext } from '../../shared/resources/definition.js';
import type { employeeV3Schema } from './employee.v3.schema.js';

export const employeeSql: SqlModel = {
  table: 'employee',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    person_id: { column: 'person_id', type: 'id' },
    function: { column: 'function', type: 'string' },
    work_email: { column: 'work_email', type: 'string' },
    employment_status: { column: 'employment_status', type: 'string' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

const fields = {
  person_id: z.string().min(1).nullable().optional(),
  function: z.string().max(255).nullable().optional(),
  work_email: z.string().max(255).nullable().optional(),
  employment_status: z.enum(['active', 'inactive']).optional(),
};
export const createEmployeeSchema = z.object({ name: z.string().trim().min(1).max(255), ...fields });
export const updateEmployeeSchema = z.object({ name: z.string().trim().min(1).max(255).optional(), ...fields });
type CreateInput = z.infer<typeof createEmployeeSchema>;
type UpdateInput = z.infer<typeof updateEmployeeSchema>;

async function columns({ ctx, tx }: WriteContext, input: UpdateInput) {
  await assertReferencesExist(tx, ctx.principal.environmentId, [{ path: 'person_id', table: 'person', id: input.person_id }]);
  return {
    name: input.name,
    personId: input.person_id,
    function: input.function,
    workEmail: input.work_email,
    employmentStatus: input.employment_status,
  };
}

/** Reference: GetEmployeeSimple, nested in projects and assignments. */
export { employeeSimpleV2 } from './employee.view.js';

/** v3 shape of employee.list items. */
export function employeeV3(e: Models.EmployeeModel): z.infer<typeof employeeV3Schema> {
  return {
    id: e.id,
    name: e.name,
    personId: e.personId,
    function: e.function,
    workEmail: e.workEmail,
    employmentStatus: e.employmentStatus as 'active' | 'inactive',
    createdAt: v3DateTime(e.createdAt) as string,
    updatedAt: v3DateTime(e.updatedAt) as string,
  };
}

export const employeeResource: ResourceDefinition<Models.EmployeeModel, CreateInput, UpdateInput> = {
  name: 'hrm/employee',
  entityType: 'employee',
  module: 'hrm',
  sql: employeeSql,
  defaultSort: [{ path: 'name', dir: 'asc' }],
  load: (db: Db, ids: string[]) => db.employee.findMany({ where: { id: { in: ids } } }),
  views: {
    v2: (e) => ({
      ...employeeV2(e),
      is_user: 0,
      teams: [],
      supervisor: null,
      status: null,
      custom_fields: [],
    }),
    v3: employeeV3,
  },
  create: {
    schema: createEmployeeSchema,
    async run(w, input) {
      const id = newEntityId('employee');
      await w.tx.employee.create({
        data: { ...(await columns(w, input)), name: input.name, id, environmentId: SCOPED_ENVIRONMENT },
      });
      return id;
    },
  },
  update: {
    schema: updateEmployeeSchema,
    async run(w, id, input) {
      await w.tx.employee.update({ where: { id }, data: { ...(await columns(w, input)), updatedAt: w.now } });
    },
  },
};
