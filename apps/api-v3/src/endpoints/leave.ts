import type { Leave } from '@bo/domain/hrm/leave/leave.entity';
import { z } from 'zod';
import { commandEndpoint, getEndpoint, listEndpoint, type NamedSchema } from './types.js';

const LeaveV3 = z.object({
  id: z.string(),
  employee: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  leaveType: z.object({ id: z.string(), label: z.string(), affectsBalance: z.boolean() }).nullable(),
  /** requested, approved, rejected; null for leave booked directly */
  status: z.object({ id: z.string(), key: z.string(), label: z.string() }).nullable(),
  kind: z.enum(['granted', 'taken']),
  startDate: z.iso.datetime().nullable(),
  endDate: z.iso.datetime().nullable(),
  isTimeDefined: z.boolean(),
  year: z.number().int(),
  hours: z.number().nullable(),
  description: z.string().nullable(),
  allowNegative: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const schema: NamedSchema = { name: 'Hrm.Leave', schema: LeaveV3 };

export function leaveV3(l: Leave): z.infer<typeof LeaveV3> {
  return {
    id: l.id,
    employee: l.employee ? { id: l.employee.id, name: l.employee.name } : null,
    leaveType: l.leaveType ? { id: l.leaveType.id, label: l.leaveType.label, affectsBalance: l.leaveType.affectsBalance } : null,
    status: l.leaveStatus ? { id: l.leaveStatus.id, key: l.leaveStatus.key, label: l.leaveStatus.label } : null,
    kind: l.kind as 'granted' | 'taken',
    startDate: l.startDate ? l.startDate.toISOString() : null,
    endDate: l.endDate ? l.endDate.toISOString() : null,
    isTimeDefined: l.isTimeDefined,
    year: l.year,
    hours: l.hours,
    description: l.description,
    allowNegative: l.allowNegative,
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
  };
}

const requestRequest: NamedSchema = {
  name: 'Hrm.Leave.Request',
  schema: z
    .object({
      employeeId: z.string(),
      leaveTypeId: z.string(),
      startDate: z.string(),
      endDate: z.string().nullable().optional(),
      isTimeDefined: z.boolean().optional(),
      hours: z.number().optional(),
      description: z.string().nullable().optional(),
      allowNegative: z.boolean().optional(),
    })
    .strict(),
};
const decideRequest: NamedSchema = {
  name: 'Hrm.Leave.Decide',
  schema: z.object({ allowNegative: z.boolean().optional() }).strict(),
};

export const leaveEndpoints = {
  'leave.list': listEndpoint<Leave>({
    call: (c) => c.hrm.leave.list,
    filters: { employeeId: 'employeeId', leaveTypeId: 'leaveTypeId', year: 'year', status: 'leaveStatus.key' },
    map: leaveV3,
    doc: { summary: 'Leave entries, paged (with and without a status)', response: schema, errors: [400, 403] },
  }),
  'leave.get': getEndpoint<Leave>({
    call: (c) => c.hrm.leave.get,
    map: leaveV3,
    doc: { summary: 'One leave entry', response: schema, errors: [403, 404] },
  }),
  'leave.request': commandEndpoint<
    Record<string, unknown>,
    { employeeId: string; leaveTypeId: string; startDate: string },
    Leave
  >({
    call: (c) => c.hrm.leave.request,
    mapInput: (body) => body as { employeeId: string; leaveTypeId: string; startDate: string },
    map: leaveV3,
    status: 201,
    doc: {
      summary:
        'Requests leave over a period (its hours from the timetables when not given); refused when it would overdraw the balance',
      request: requestRequest,
      response: schema,
      errors: [400, 403, 422],
    },
  }),
  'leave.approve': commandEndpoint<{ allowNegative?: boolean }, { id: string; allowNegative?: boolean }, Leave>({
    call: (c) => c.hrm.leave.approve,
    withId: true,
    mapInput: (body, id) => ({ id: id as string, ...body }),
    map: leaveV3,
    status: 200,
    doc: {
      summary: 'Approves requested leave: it counts against the balance from now',
      request: decideRequest,
      response: schema,
      errors: [403, 404, 422],
    },
  }),
  'leave.reject': commandEndpoint<{ allowNegative?: boolean }, { id: string }, Leave>({
    call: (c) => c.hrm.leave.reject,
    withId: true,
    mapInput: (_body, id) => ({ id: id as string }),
    map: leaveV3,
    status: 200,
    doc: { summary: 'Rejects requested leave', request: decideRequest, response: schema, errors: [403, 404, 422] },
  }),
};
