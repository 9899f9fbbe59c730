import { SCOPED_ENVIRONMENT } from '@bo/db';
import { organization } from '../../crm/organization/organization.entity.js';
import type { EntityCreate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import { employee } from '../employee/employee.entity.js';
import { contractType, employmentType } from '../reference/hrm-lookups.entity.js';
import type { CreateContractInput } from './contract.schema.js';

export const createContract: EntityCreate<CreateContractInput> = {
  references: (i) => [
    { path: 'employeeId', target: employee, id: i.employeeId },
    { path: 'employerId', target: organization, id: i.employerId },
    { path: 'employmentTypeId', target: employmentType, id: i.employmentTypeId },
    { path: 'contractTypeId', target: contractType, id: i.contractTypeId },
  ],
  async run({ tx }, i) {
    const id = newEntityId('contract');
    await tx.contract.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        employeeId: i.employeeId,
        employerId: i.employerId ?? null,
        employmentTypeId: i.employmentTypeId ?? null,
        contractTypeId: i.contractTypeId ?? null,
        startDate: i.startDate,
        endDate: i.endDate ?? null,
        salaryFulltime: i.salaryFulltime ?? null,
        parttimePercentage: i.parttimePercentage,
        daysOff: i.daysOff,
      },
    });
    return id;
  },
};
