import { SCOPED_ENVIRONMENT } from '@bo/db';
import { person } from '../../crm/person/person.entity.js';
import type { EntityCreate, EntityUpdate, ReferenceCheck } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateEmployeeInput, UpdateEmployeeInput } from './employee.schema.js';

const references = (input: UpdateEmployeeInput): ReferenceCheck[] => [{ path: 'personId', target: person, id: input.personId }];

function columns(input: UpdateEmployeeInput) {
  return {
    name: input.name,
    personId: input.personId,
    function: input.function,
    workEmail: input.workEmail,
    employmentStatus: input.employmentStatus,
  };
}

export const createEmployee: EntityCreate<CreateEmployeeInput> = {
  references,
  async run({ tx }, input) {
    const id = newEntityId('employee');
    await tx.employee.create({ data: { ...columns(input), name: input.name, id, environmentId: SCOPED_ENVIRONMENT } });
    return id;
  },
};

export const updateEmployee: EntityUpdate<UpdateEmployeeInput> = {
  references,
  async run({ tx, now }, id, input) {
    await tx.employee.update({ where: { id }, data: { ...columns(input), updatedAt: now } });
  },
};
