import { createEmployeeInput, updateEmployeeInput } from '@bo/domain/hrm/employee/employee.schema';
import { type Employee, employee } from '@bo/domain/hrm/employee/employee.entity';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { employeeReferenceV2 } from './employee-reference.js';

/** hrm/employee (reference: Employee, plus what the HRM table does not keep yet as constants). */
export const employeeV2 = v2Resource<Employee>({
  path: 'hrm/employee',
  entity: employee,
  inputs: { create: createEmployeeInput, update: updateEmployeeInput, remove: true },
  procedures: (c) => c.hrm.employee,
  names: v2Names(),
  read: (e) => ({ ...employeeReferenceV2(e), is_user: 0, teams: [], supervisor: null, status: null, custom_fields: [] }),
});

/** GetEmployeeSimple: how projects and assignments name an employee. */
export function employeeSimpleV2(e: { id: string; personId?: string | null; name: string | null }) {
  return 'personId' in e ? { id: e.id, person_id: e.personId, name: e.name } : { id: e.id, name: e.name };
}
