import { SCOPED_ENVIRONMENT, type Models, type SqlModel } from '@bo/db';
import { z } from 'zod';
import { ConflictError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { money, num } from '../../shared/numbers.js';
import { assertReferencesExist } from '../../shared/references.js';
import type { ResourceDefinition } from '../../shared/resources/definition.js';

export const projectEmployeeSql: SqlModel = {
  table: 'project_employee',
  fields: {
    id: { column: 'id', type: 'id' },
    project_id: { column: 'project_id', type: 'id' },
    employee_id: { column: 'employee_id', type: 'id' },
    tariff: { column: 'tariff', type: 'number' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

export const postProjectEmployeeSchema = z.object({
  project_id: z.string().min(1),
  employee_id: z.string().min(1),
  tariff: money.nullable().optional(),
});
type PostInput = z.infer<typeof postProjectEmployeeSchema>;

/** v2 projects/projectemployee: adds (POST) and removes (DELETE) an employee on a project (contract, 2022-08). */
export const projectEmployeeResource: ResourceDefinition<Models.ProjectEmployeeModel, PostInput> = {
  name: 'projects/projectemployee',
  entityType: 'projectemployee',
  module: 'projects',
  sql: projectEmployeeSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: (db, ids) => db.projectEmployee.findMany({ where: { id: { in: ids } } }),
  views: {
    v2: (e) => ({ id: e.id, project_id: e.projectId, employee_id: e.employeeId, tariff: num(e.tariff) }),
    v3: (e) => ({ id: e.id, projectId: e.projectId, employeeId: e.employeeId, tariff: num(e.tariff) }),
  },
  create: {
    schema: postProjectEmployeeSchema,
    async run({ ctx, tx }, input) {
      await assertReferencesExist(tx, ctx.principal.environmentId, [
        { path: 'project_id', table: 'project', id: input.project_id },
        { path: 'employee_id', table: 'employee', id: input.employee_id },
      ]);
      const existing = await tx.projectEmployee.findFirst({
        where: { projectId: input.project_id, employeeId: input.employee_id },
      });
      if (existing)
        throw new ConflictError(`employee ${input.employee_id} is already on project ${input.project_id} (${existing.id})`);
      const id = newEntityId('projectemployee');
      await tx.projectEmployee.create({
        data: {
          id,
          environmentId: SCOPED_ENVIRONMENT,
          projectId: input.project_id,
          employeeId: input.employee_id,
          tariff: input.tariff ?? null,
        },
      });
      return id;
    },
  },
};
