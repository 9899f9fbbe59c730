import { SCOPED_ENVIRONMENT } from '@bo/db';
import { employee } from '../../hrm/employee/employee.entity.js';
import type { EntityCreate } from '../../shared/entity/index.js';
import { ConflictError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { project } from '../project/project.entity.js';
import type { CreateProjectEmployeeInput } from './projectemployee.schema.js';

/** An employee is on a project once: a second time is a conflict naming the first. */
export const createProjectEmployee: EntityCreate<CreateProjectEmployeeInput> = {
  references: (input) => [
    { path: 'projectId', target: project, id: input.projectId },
    { path: 'employeeId', target: employee, id: input.employeeId },
  ],
  async run({ tx }, input) {
    const existing = await tx.projectEmployee.findFirst({ where: { projectId: input.projectId, employeeId: input.employeeId } });
    if (existing) {
      throw new ConflictError(`employee ${input.employeeId} is already on project ${input.projectId} (${existing.id})`);
    }
    const id = newEntityId('projectemployee');
    await tx.projectEmployee.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        projectId: input.projectId,
        employeeId: input.employeeId,
        tariff: input.tariff ?? null,
      },
    });
    return id;
  },
};
