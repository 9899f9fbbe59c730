import { createEmployeeInput, updateEmployeeInput } from '@bo/domain/hrm/employee/employee.schema';
import { type Employee, employee } from '@bo/domain/hrm/employee/employee.entity';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { employeeReferenceV2 } from './employee-reference.js';

/**
 * hrm/employee (reference: GetEmployee; PostEmployee/PutEmployee plus the employee's own
 * fields as extensions: name, function, work_*, bank_account, tariffs, user_id, teams,
 * civil_status_id, employee_type_id). `person.*` paths filter through the person link (2023-04).
 */
export const employeeV2 = v2Resource<Employee>({
  path: 'hrm/employee',
  entity: employee,
  inputs: { create: createEmployeeInput, update: updateEmployeeInput, remove: true },
  procedures: (c) => c.hrm.employee,
  names: v2Names(),
  // added onto the reference (Object.assign), not spread with it: see crm/organization.ts
  read: (e) =>
    Object.assign(employeeReferenceV2(e), {
      name: e.person && 'fullName' in e.person && e.person.fullName ? e.person.fullName : e.name,
      bank_account: e.bankAccount,
      type: e.employeeType ? { id: e.employeeType.id, label: e.employeeType.label } : null,
      civil_status: e.civilStatus?.label ?? null,
      work_phone: e.workPhone,
      work_mobile: e.workMobile,
      hourly_sales_tariff: e.hourlySalesTariff,
      hourly_cost_tariff: e.hourlyCostTariff,
      is_user: e.userId ? 1 : 0,
      user_id: e.userId,
      teams: e.teams.map((t) => ({ id: t.id, name: t.name })),
      supervisor: e.supervisor ? { id: e.supervisor.id, person_id: e.supervisor.personId, name: e.supervisor.name } : null,
      status: e.status ? { id: e.status.id, label: e.status.label } : null,
      /** 2024-10: hours on days no timetable covers (flagged, not refused) */
      has_hours_outside_timetables: e.hasHoursOutsideTimetables,
      custom_fields: [],
    }),
  documentAsBuilt: ['name', 'type', 'civil_status', 'teams', 'supervisor', 'status'],
});

/** GetEmployeeSimple: how projects and assignments name an employee. */
export { employeeSimpleV2 } from '../shared/simple.js';
