import { organization } from '../../crm/organization/organization.entity.js';
import type { EntityCreate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import { employee } from '../employee/employee.entity.js';
import { contractType, employmentType } from '../reference/hrm-lookups.entity.js';
import type { CreateContractInput } from './contract.schema.js';

const day = (d: Date): string => d.toISOString().slice(0, 10);

export const createContract: EntityCreate<CreateContractInput> = {
  references: (i) => [
    { path: 'employeeId', target: employee, id: i.employeeId },
    { path: 'employerId', target: organization, id: i.employerId },
    { path: 'employmentTypeId', target: employmentType, id: i.employmentTypeId },
    { path: 'contractTypeId', target: contractType, id: i.contractTypeId },
  ],
  // one INSERT queued in a transaction of our own, with the event
  async run({ sql, now }, i) {
    const id = newEntityId('contract');
    await sql.insert('contract', {
      id,
      employee_id: i.employeeId,
      employer_id: i.employerId ?? null,
      employment_type_id: i.employmentTypeId ?? null,
      contract_type_id: i.contractTypeId ?? null,
      start_date: day(i.startDate),
      end_date: i.endDate ? day(i.endDate) : null,
      salary_fulltime: i.salaryFulltime ?? null,
      parttime_percentage: i.parttimePercentage,
      days_off: i.daysOff,
      updated_at: now,
    });
    return id;
  },
};
