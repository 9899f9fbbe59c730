import type { Hours } from '@bo/domain/hours/hours/hours.entity';
import { z } from 'zod';
import { commandEndpoint, getEndpoint, listEndpoint, type NamedSchema } from './types.js';

const named = z.object({ id: z.string(), name: z.string().nullable() });

/** v3 shape of an hour registration. */
const HoursV3 = z.object({
  id: z.string(),
  employee: named.nullable(),
  project: named.nullable(),
  projectService: named
    .extend({ registrationStartDate: z.string().nullable(), registrationEndDate: z.string().nullable() })
    .nullable(),
  hourType: z.object({ id: z.string(), label: z.string() }).nullable(),
  date: z.string().nullable(),
  durationMinutes: z.number().int(),
  billable: z.boolean(),
  description: z.string().nullable(),
  approvalStatus: z.enum(['open', 'submitted', 'approved', 'rejected']),
  invoiceId: z.string().nullable(),
  tariff: z.number().nullable(),
  source: z.string().nullable(),
  isProductive: z.boolean(),
  isEditable: z.boolean(),
  isDeletable: z.boolean(),
  customFields: z.array(z.object({ name: z.string(), value: z.string().nullable() })),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const hoursSchema: NamedSchema = { name: 'Hours.Hours', schema: HoursV3 };

export function hoursV3(h: Hours): z.infer<typeof HoursV3> {
  const s = h.projectService;
  return {
    id: h.id,
    employee: h.employee ? { id: h.employee.id, name: h.employee.name } : null,
    project: h.project ? { id: h.project.id, name: h.project.name } : null,
    projectService: s
      ? {
          id: s.id,
          name: s.name,
          registrationStartDate: s.writeHoursStartDate ?? null,
          registrationEndDate: s.writeHoursEndDate ?? null,
        }
      : null,
    hourType: h.hourType ? { id: h.hourType.id, label: h.hourType.label } : null,
    date: h.startDate,
    durationMinutes: h.durationMinutes,
    billable: h.billable,
    description: h.description,
    approvalStatus: h.approvalStatus as z.infer<typeof HoursV3>['approvalStatus'],
    invoiceId: h.invoiceId,
    tariff: h.tariff,
    source: h.source,
    isProductive: h.isProductive,
    isEditable: h.isEditable,
    isDeletable: h.isDeletable,
    customFields: h.customFields.map((c) => ({ name: c.name, value: c.value })),
    createdAt: h.createdAt.toISOString(),
    updatedAt: h.updatedAt.toISOString(),
  };
}

const customFields = z.array(z.object({ name: z.string(), value: z.string().nullable() }));
const hoursFields = {
  projectServiceId: z.string(),
  hourTypeId: z.string(),
  date: z.string(),
  durationMinutes: z.number().int(),
  billable: z.boolean().nullable().optional(),
  description: z.string().nullable().optional(),
  source: z.enum(['schedule', 'timer', 'timesheet']).nullable().optional(),
  customFields: customFields.optional(),
};
const createRequest: NamedSchema = {
  name: 'Hours.Hours.Create',
  schema: z.strictObject({ employeeId: z.string(), ...hoursFields }),
};
const editRequest: NamedSchema = {
  name: 'Hours.Hours.Edit',
  schema: z.strictObject({
    employeeId: z.string().optional(),
    projectServiceId: z.string().optional(),
    hourTypeId: z.string().optional(),
    date: z.string().optional(),
    durationMinutes: z.number().int().optional(),
    billable: hoursFields.billable,
    description: hoursFields.description,
    source: hoursFields.source,
    customFields: customFields.optional(),
  }),
};
const weekRequest: NamedSchema = {
  name: 'Hours.Week',
  schema: z.strictObject({ employeeId: z.string(), date: z.string() }),
};
const emptyRequest: NamedSchema = { name: 'Hours.Empty', schema: z.strictObject({}) };
const transition: NamedSchema = { name: 'Hours.Transition', schema: z.object({ id: z.string() }) };
const deleted: NamedSchema = { name: 'Hours.Deleted', schema: z.object({ id: z.string() }) };

/** v3 names → domain input: `date` is the day the hours are booked on. */
function toDomain(body: Record<string, unknown>): Record<string, unknown> {
  const { date, ...rest } = body;
  return { ...rest, ...(date !== undefined ? { startDate: date } : {}) };
}
const v3Path = (p: string) => (p === 'startDate' ? 'date' : p);

const week = (call: 'submit' | 'approve' | 'reject', summary: string) =>
  commandEndpoint<Record<string, unknown>, { employeeId: string; date: string }, { id: string }>({
    call: (c) => c.hours.approval[call],
    mapInput: (body) => ({ employeeId: String(body.employeeId), date: String(body.date) }),
    status: 200,
    doc: { summary, request: weekRequest, response: transition, errors: [400, 403, 422] },
  });

export const hoursEndpoints = {
  'hours.list': listEndpoint<Hours>({
    call: (c) => c.hours.hours.list,
    filters: {
      employeeId: 'employeeId',
      projectId: 'projectId',
      'date[ge]': { path: 'startDate', op: 'ge', value: 'date' },
      'date[le]': { path: 'startDate', op: 'le', value: 'date' },
    },
    sort: [
      { path: 'startDate', dir: 'asc' },
      { path: 'id', dir: 'asc' },
    ],
    map: hoursV3,
    doc: {
      summary: 'Hour registrations, paged; filters employeeId, projectId, date[ge], date[le]',
      response: hoursSchema,
      errors: [400, 403],
    },
  }),
  'hours.get': getEndpoint<Hours>({
    call: (c) => c.hours.hours.get,
    map: hoursV3,
    doc: { summary: 'One hour registration', response: hoursSchema, errors: [403, 404] },
  }),
  'hours.create': commandEndpoint<Record<string, unknown>, { data: never }, Hours>({
    call: (c) => c.hours.hours.createCommand,
    mapInput: (body) => ({ data: toDomain(body) as never }),
    map: hoursV3,
    paths: v3Path,
    status: 201,
    doc: {
      summary: 'Books hours under the booking rules (assignment, registration timeframe, 24 hours a day, …)',
      request: createRequest,
      response: hoursSchema,
      errors: [400, 403, 422],
    },
  }),
  'hours.edit': commandEndpoint<Record<string, unknown>, { id: string; data: never }, Hours>({
    call: (c) => c.hours.hours.updateCommand,
    withId: true,
    mapInput: (body, id) => ({ id: id as string, data: toDomain(body) as never }),
    map: hoursV3,
    paths: v3Path,
    status: 200,
    doc: {
      summary: 'Changes hours that are neither approved, submitted nor invoiced',
      request: editRequest,
      response: hoursSchema,
      errors: [400, 403, 404, 422],
    },
  }),
  'hours.delete': commandEndpoint<Record<string, unknown>, { id: string }, { id: string }>({
    call: (c) => c.hours.hours.delete,
    withId: true,
    mapInput: (_body, id) => ({ id: id as string }),
    status: 200,
    doc: {
      summary: 'Deletes hours that are neither approved, submitted nor invoiced',
      request: emptyRequest,
      response: deleted,
      errors: [403, 404, 422],
    },
  }),
  'hours.submit': week('submit', 'Submits the ISO week of the date of an employee for approval'),
  'hours.approve': week('approve', 'Approves a submitted week: its hours are locked'),
  'hours.reject': week('reject', 'Rejects a submitted week: its hours can be edited and submitted again'),
};
