import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { employee } from '../employee/employee.entity.js';

/** HRM lookups of an environment (seeded per environment; see ../reference-data.seed.ts). */
const stamps = () => ({ createdAt: f.createdAt(), updatedAt: f.updatedAt() });

/** An employee's status: active, inactive, unemployed (out of employment). */
export const employeeStatus = defineEntity({
  type: 'employeestatus',
  table: 'employee_status',
  module: 'hrm',
  nameField: 'label',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  // label: the system label (active); name: the readable text (docs/fidelity.md)
  fields: {
    id: f.id(),
    key: f.requiredString(),
    label: f.requiredString(),
    name: f.string(),
    position: f.requiredInteger(),
    ...stamps(),
  },
});
export type EmployeeStatus = z.infer<typeof employeeStatus.schema>;

export const civilStatus = defineEntity({
  type: 'civilstatus',
  table: 'civil_status',
  module: 'hrm',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: { id: f.id(), label: f.requiredString(), blocked: f.boolean(), ...stamps() },
});
export type CivilStatus = z.infer<typeof civilStatus.schema>;

export const employeeType = defineEntity({
  type: 'employeetype',
  table: 'employee_type',
  module: 'hrm',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: { id: f.id(), label: f.requiredString(), ...stamps() },
});
export type EmployeeType = z.infer<typeof employeeType.schema>;

export const employmentType = defineEntity({
  type: 'employmenttype',
  table: 'employment_type',
  module: 'hrm',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: { id: f.id(), name: f.requiredString(), blocked: f.boolean(), ...stamps() },
});
export type EmploymentType = z.infer<typeof employmentType.schema>;

export const contractType = defineEntity({
  type: 'contracttype',
  table: 'contract_type',
  module: 'hrm',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: { id: f.id(), name: f.requiredString(), blocked: f.boolean(), ...stamps() },
});
export type ContractType = z.infer<typeof contractType.schema>;

/** A leave type; `affectsBalance` types have a balance, the `contractGrants` one receives the contracts' days off. */
export const leaveType = defineEntity({
  type: 'leavetype',
  table: 'leave_type',
  module: 'hrm',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: {
    id: f.id(),
    label: f.requiredString(),
    blocked: f.boolean(),
    color: f.string(),
    affectsBalance: f.boolean(),
    contractGrants: f.boolean(),
    ...stamps(),
  },
});
export type LeaveType = z.infer<typeof leaveType.schema>;

/** requested, approved, rejected */
export const leaveStatus = defineEntity({
  type: 'leavestatus',
  table: 'leave_status',
  module: 'hrm',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: { id: f.id(), key: f.requiredString(), label: f.requiredString(), ...stamps() },
});
export type LeaveStatus = z.infer<typeof leaveStatus.schema>;

export const absenceType = defineEntity({
  type: 'absencetype',
  table: 'absence_type',
  module: 'hrm',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: { id: f.id(), label: f.requiredString(), blocked: f.boolean(), color: f.string(), ...stamps() },
});
export type AbsenceType = z.infer<typeof absenceType.schema>;

/** A team of employees. */
export const team = defineEntity({
  type: 'team',
  table: 'team',
  module: 'hrm',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: {
    id: f.id(),
    name: f.requiredString(),
    employees: f.many(
      (): TargetEntity => employee,
      z.object({ id: z.string(), personId: z.string().nullable(), name: z.string() }),
      {
        remote: 'team_id',
        through: { table: 'team_employee', targetColumn: 'employee_id' },
        orderBy: (a) => `${a}.name, ${a}.id`,
        writable: false,
      },
    ),
    ...stamps(),
  },
});
export type Team = z.infer<typeof team.schema>;
