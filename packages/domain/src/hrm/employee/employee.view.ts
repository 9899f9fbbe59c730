import type { Models } from '@bo/db';
import { v2DateTime } from '../../shared/format.js';

/** v2 reference `GetEmployeeSimple`: how other resources name an employee (project manager, employees). */
export function employeeSimpleV2(e: Models.EmployeeModel) {
  return { id: e.id, person_id: e.personId, name: e.name };
}

/**
 * v2 reference `Employee`: the fields the HRM table keeps, the rest null until it
 * keeps them. Used for a relation manager and as the base of hrm/employee reads.
 */
export function employeeV2(e: Models.EmployeeModel) {
  return {
    ...employeeSimpleV2(e),
    bank_account: null,
    function: e.function,
    type: null,
    employment_status: e.employmentStatus === 'active' ? 'active' : 'inactive',
    civil_status: null,
    work_phone: null,
    work_mobile: null,
    work_email: e.workEmail,
    hourly_sales_tariff: null,
    hourly_cost_tariff: null,
    avatar: null,
    created_at: v2DateTime(e.createdAt),
    updated_at: v2DateTime(e.updatedAt),
    simplicate_url: null,
  };
}
