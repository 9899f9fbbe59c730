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
  async run({ sql, now }, input) {
    const [existing] = await sql.read<{ id: string }>(
      'SELECT id FROM project_employee WHERE environment_id = $1 AND project_id = $2 AND employee_id = $3',
      [input.projectId, input.employeeId],
    );
    if (existing) {
      throw new ConflictError(`employee ${input.employeeId} is already on project ${input.projectId} (${existing.id})`);
    }
    const id = newEntityId('projectemployee');
    await sql.insert('project_employee', {
      id,
      project_id: input.projectId,
      employee_id: input.employeeId,
      tariff: input.tariff ?? null,
      updated_at: now,
    });
    return id;
  },
};
