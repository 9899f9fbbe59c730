import type { Employee } from '@bo/domain/hrm/employee/employee.entity';
import { z } from 'zod';
import { commandEndpoint, getEndpoint, listEndpoint, type NamedSchema } from './types.js';

const named = z.object({ id: z.string(), name: z.string().nullable() });

/** v3 shape of an employee. */
const EmployeeV3 = z.object({
  id: z.string(),
  name: z.string(),
  personId: z.string().nullable(),
  userId: z.string().nullable(),
  function: z.string().nullable(),
  workEmail: z.string().nullable(),
  workPhone: z.string().nullable(),
  workMobile: z.string().nullable(),
  employmentStatus: z.enum(['active', 'inactive']),
  status: z.object({ id: z.string(), key: z.string(), label: z.string() }).nullable(),
  supervisor: named.nullable(),
  teams: z.array(named),
  /** 2024-10: hours on days no timetable covers (flagged, not refused) */
  hasHoursOutsideTimetables: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

const schema: NamedSchema = { name: 'Hrm.Employee', schema: EmployeeV3 };

export function employeeV3(e: Employee): z.infer<typeof EmployeeV3> {
  return {
    id: e.id,
    name: e.person && 'fullName' in e.person && e.person.fullName ? e.person.fullName : e.name,
    personId: e.personId,
    userId: e.userId,
    function: e.function,
    workEmail: e.workEmail,
    workPhone: e.workPhone,
    workMobile: e.workMobile,
    employmentStatus: e.employmentStatus as 'active' | 'inactive',
    status: e.status ? { id: e.status.id, key: e.status.key, label: e.status.label } : null,
    supervisor: e.supervisor ? { id: e.supervisor.id, name: e.supervisor.name } : null,
    teams: e.teams.map((t) => ({ id: t.id, name: t.name })),
    hasHoursOutsideTimetables: e.hasHoursOutsideTimetables,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

const writable = {
  personId: z.string().nullable().optional(),
  userId: z.string().nullable().optional(),
  function: z.string().nullable().optional(),
  workEmail: z.string().nullable().optional(),
  workPhone: z.string().nullable().optional(),
  workMobile: z.string().nullable().optional(),
  bankAccount: z.string().nullable().optional(),
  statusId: z.string().nullable().optional(),
  supervisorId: z.string().nullable().optional(),
  teamIds: z.array(z.string()).optional(),
};
const createRequest: NamedSchema = {
  name: 'Hrm.Employee.Create',
  schema: z.object({ name: z.string().optional(), ...writable }).strict(),
};
const editRequest: NamedSchema = {
  name: 'Hrm.Employee.Edit',
  schema: z.object({ name: z.string().optional(), ...writable }).strict(),
};
const emptyRequest: NamedSchema = { name: 'Hrm.Empty', schema: z.object({}).strict() };

type EmployeeBody = z.infer<typeof editRequest.schema> & { name?: string } & Record<string, unknown>;

/** the v3 body in domain terms: ids of related records become `{id}` references */
function toDomain(body: EmployeeBody): Record<string, unknown> {
  const { statusId, supervisorId, teamIds, ...rest } = body as Record<string, unknown> & {
    statusId?: string | null;
    supervisorId?: string | null;
    teamIds?: string[];
  };
  return {
    ...rest,
    ...(statusId !== undefined ? { status: statusId === null ? null : { id: statusId } } : {}),
    ...(supervisorId !== undefined ? { supervisor: supervisorId === null ? null : { id: supervisorId } } : {}),
    ...(teamIds !== undefined ? { teams: teamIds.map((id) => ({ id })) } : {}),
  };
}

/** domain paths of violations in v3 names */
export const employeePaths = (p: string): string =>
  p === 'status.id' ? 'statusId' : p === 'supervisor.id' ? 'supervisorId' : p.replace(/^teams\.(\d+)\.id$/, 'teamIds[$1]');

export const employeeEndpoints = {
  'employee.list': listEndpoint<Employee>({
    call: (c) => c.hrm.employee.list,
    filters: { name: 'name', status: 'status.key', teamId: 'teams.id' },
    map: employeeV3,
    doc: {
      summary: 'Employees, paged; filters name, status (active, inactive, unemployed) and teamId',
      response: schema,
      errors: [400, 403],
    },
  }),
  'employee.get': getEndpoint<Employee>({
    call: (c) => c.hrm.employee.get,
    map: employeeV3,
    doc: { summary: 'One employee', response: schema, errors: [403, 404] },
  }),
  'employee.create': commandEndpoint<EmployeeBody, { data: never }, Employee>({
    call: (c) => c.hrm.employee.createCommand,
    mapInput: (body) => ({ data: toDomain(body) as never }),
    map: employeeV3,
    paths: employeePaths,
    status: 201,
    doc: { summary: 'Creates an employee', request: createRequest, response: schema, errors: [400, 403, 422] },
  }),
  'employee.edit': commandEndpoint<EmployeeBody, { id: string; data: never }, Employee>({
    call: (c) => c.hrm.employee.edit,
    withId: true,
    mapInput: (body, id) => ({ id: id as string, data: toDomain(body) as never }),
    map: employeeV3,
    paths: employeePaths,
    status: 200,
    doc: {
      summary: 'Changes an employee (a person_id links it to a person: 2023-04)',
      request: editRequest,
      response: schema,
      errors: [400, 403, 404, 422],
    },
  }),
  'employee.endEmployment': commandEndpoint<Record<string, never>, { id: string }, Employee>({
    call: (c) => c.hrm.employee.endEmployment,
    withId: true,
    mapInput: (_body, id) => ({ id: id as string }),
    map: employeeV3,
    status: 200,
    doc: {
      summary: 'Sets the employee out of employment: only when its user is blocked and every timetable has an end date (2023-11)',
      request: emptyRequest,
      response: schema,
      errors: [403, 404, 422],
    },
  }),
};
