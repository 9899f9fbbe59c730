import { createProjectEmployeeInput } from '@bo/domain/projects/projectemployee/projectemployee.schema';
import { type ProjectEmployee, projectEmployee } from '@bo/domain/projects/projectemployee/projectemployee.entity';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

/** projects/projectemployee: adds (POST) and removes (DELETE) an employee on a project (contract, 2022-08). */
export const projectEmployeeV2 = v2Resource<ProjectEmployee>({
  path: 'projects/projectemployee',
  entity: projectEmployee,
  inputs: { create: createProjectEmployeeInput, remove: true },
  procedures: (c) => c.projects.projectemployee,
  names: v2Names(),
  read: (e) => ({ id: e.id, project_id: e.projectId, employee_id: e.employeeId, tariff: e.tariff }),
});
