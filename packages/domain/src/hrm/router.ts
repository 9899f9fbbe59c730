import { customFieldDefinitionRouter, modelCustomFieldGroupRouter } from '../customfields/router.js';
import { areaDocumentRouters, DOCUMENT_AREAS } from '../documents/area-documents.js';
import { entityCreate, entityQueries } from '../shared/entity/index.js';
import { router } from '../trpc.js';
import { absenceRouter } from './absence/absence.router.js';
import { contract } from './contract/contract.entity.js';
import { createContractInput } from './contract/contract.schema.js';
import { createContract } from './contract/contract.write.js';
import { employeeRouter } from './employee/employee.router.js';
import { leaveRouter } from './leave/leave.router.js';
import {
  absenceType,
  civilStatus,
  contractType,
  employeeStatus,
  employeeType,
  employmentType,
  leaveStatus,
  leaveType,
  team,
} from './reference/hrm-lookups.entity.js';
import { timetableRouter } from './timetable/timetable.router.js';

export const hrmRouter = router({
  employee: employeeRouter,
  timetable: timetableRouter,
  /** contracts are read on v2; created in the domain (seed, tools) */
  contract: router({ ...entityQueries(contract), create: entityCreate(contract, createContractInput, createContract) }),
  leave: leaveRouter,
  absence: absenceRouter,
  employeeStatus: router(entityQueries(employeeStatus)),
  team: router(entityQueries(team)),
  civilStatus: router(entityQueries(civilStatus)),
  employeeType: router(entityQueries(employeeType)),
  employmentType: router(entityQueries(employmentType)),
  contractType: router(entityQueries(contractType)),
  leaveType: router(entityQueries(leaveType)),
  leaveStatus: router(entityQueries(leaveStatus)),
  absenceType: router(entityQueries(absenceType)),
  /** the document store's rows linked to an employee, and the types meant for employees, under the hrm right */
  ...areaDocumentRouters(DOCUMENT_AREAS.hrm),
  /** custom-field definitions and groups of employees (no values: the contract refuses their filters) */
  customFields: customFieldDefinitionRouter('employee', 'hrm'),
  customFieldGroups: modelCustomFieldGroupRouter('employee', 'hrm'),
});
