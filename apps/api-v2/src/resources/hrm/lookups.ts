import { areaDocumentV2 } from '../documents/documents.js';
import { areaDocumentTypeV2 } from '../documents/documenttype.js';
import type { Contract } from '@bo/domain/hrm/contract/contract.entity';
import type {
  AbsenceType,
  CivilStatus,
  ContractType,
  EmployeeType,
  EmploymentType,
  LeaveType,
  Team,
} from '@bo/domain/hrm/reference/hrm-lookups.entity';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { employeeReferenceV2 } from './employee-reference.js';
import { employeeSimpleV2 } from './employee.js';

const names = v2Names({ document_type_id: 'documentTypeId' });
const readOnly = { create: false, update: false, delete: false };

/** hrm/team (reference: GetTeam): its employees as GetEmployeeSimple. */
export const teamV2 = v2Resource<Team>({
  path: 'hrm/team',
  procedures: (c) => c.hrm.team,
  names,
  read: (t) => ({ id: t.id, name: t.name, employees: t.employees.map(employeeSimpleV2) }),
  documentAsBuilt: ['employees'],
  conformance: false,
});

export const civilStatusV2 = v2Resource<CivilStatus>({
  path: 'hrm/civilstatus',
  procedures: (c) => c.hrm.civilStatus,
  names,
  read: (s) => ({ id: s.id, label: s.label, blocked: s.blocked }),
});

export const employeeTypeV2 = v2Resource<EmployeeType>({
  path: 'hrm/employeetype',
  procedures: (c) => c.hrm.employeeType,
  names,
  read: (s) => ({ id: s.id, label: s.label }),
});

export const employmentTypeV2 = v2Resource<EmploymentType>({
  path: 'hrm/employmenttype',
  procedures: (c) => c.hrm.employmentType,
  names,
  read: (s) => ({ id: s.id, name: s.name, blocked: s.blocked }),
});

export const contractTypeV2 = v2Resource<ContractType>({
  path: 'hrm/contracttype',
  procedures: (c) => c.hrm.contractType,
  names,
  read: (s) => ({ id: s.id, name: s.name, blocked: s.blocked }),
});

/** hrm/leavetype (reference: LeaveType with its id). */
export const leaveTypeV2 = v2Resource<LeaveType>({
  path: 'hrm/leavetype',
  procedures: (c) => c.hrm.leaveType,
  names,
  read: (s) => ({ id: s.id, label: s.label, blocked: s.blocked, color: s.color, affects_balance: s.affectsBalance }),
});

export const absenceTypeV2 = v2Resource<AbsenceType>({
  path: 'hrm/absencetype',
  procedures: (c) => c.hrm.absenceType,
  names,
  read: (s) => ({ id: s.id, label: s.label, blocked: s.blocked, color: s.color }),
});

/**
 * hrm/contract (reference: GetContract; read-only there). The reference types end_date as
 * a boolean; it is a date here, like start_date.
 */
export const contractV2 = v2Resource<Contract>({
  path: 'hrm/contract',
  procedures: (c) => c.hrm.contract,
  names,
  methods: readOnly,
  read: (k) => ({
    id: k.id,
    employee: k.employee ? employeeReferenceV2(k.employee) : null,
    employer: k.employer ? { id: k.employer.id, name: k.employer.name } : null,
    employment_type: k.employmentType
      ? { id: k.employmentType.id, name: k.employmentType.name, blocked: k.employmentType.blocked }
      : null,
    contract_type: k.contractType ? { id: k.contractType.id, name: k.contractType.name, blocked: k.contractType.blocked } : null,
    created_at: v2DateTime(k.createdAt),
    updated_at: v2DateTime(k.updatedAt),
    start_date: k.startDate,
    end_date: k.endDate,
    salary_fulltime: k.salaryFulltime,
    parttime_percentage: k.parttimePercentage,
    days_off: k.daysOff,
  }),
  documentAsBuilt: ['employee', 'employer', 'employment_type', 'contract_type'],
  conformance: false,
});

/** hrm/document: the documents linked to an employee (reference: GetDocument, PostDocument, PutDocument). */
export const employeeDocumentV2 = areaDocumentV2('hrm/document', (c) => c.hrm.document);

/** hrm/documenttype: the document types meant for employees. */
export const employeeDocumentTypeV2 = areaDocumentTypeV2('hrm/documenttype', (c) => c.hrm.documenttype);
