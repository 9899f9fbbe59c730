import type { Absence } from '@bo/domain/hrm/absence/absence.entity';
import { z } from 'zod';
import { commandEndpoint, getEndpoint, listEndpoint, type NamedSchema } from './types.js';

const AbsenceV3 = z.object({
  id: z.string(),
  employee: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  absenceType: z.object({ id: z.string(), label: z.string() }).nullable(),
  startDate: z.iso.datetime(),
  /** null while ongoing */
  endDate: z.iso.datetime().nullable(),
  ongoing: z.boolean(),
  isTimeDefined: z.boolean(),
  year: z.number().int(),
  hours: z.number().nullable(),
  description: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const schema: NamedSchema = { name: 'Hrm.Absence', schema: AbsenceV3 };

export function absenceV3(a: Absence): z.infer<typeof AbsenceV3> {
  return {
    id: a.id,
    employee: a.employee ? { id: a.employee.id, name: a.employee.name } : null,
    absenceType: a.absenceType ? { id: a.absenceType.id, label: a.absenceType.label } : null,
    startDate: a.startDate.toISOString(),
    endDate: a.endDate ? a.endDate.toISOString() : null,
    ongoing: a.absenceOngoing,
    isTimeDefined: a.isTimeDefined,
    year: a.year,
    hours: a.hours,
    description: a.description,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

const reportRequest: NamedSchema = {
  name: 'Hrm.Absence.Report',
  schema: z
    .object({
      employeeId: z.string(),
      absenceTypeId: z.string(),
      startDate: z.string(),
      endDate: z.string().nullable().optional(),
      isTimeDefined: z.boolean().optional(),
      hours: z.number().nullable().optional(),
      description: z.string().nullable().optional(),
    })
    .strict(),
};
const closeRequest: NamedSchema = { name: 'Hrm.Absence.Close', schema: z.object({ endDate: z.string() }).strict() };

export const absenceEndpoints = {
  'absence.list': listEndpoint<Absence>({
    call: (c) => c.hrm.absence.list,
    filters: { employeeId: 'employeeId', absenceTypeId: 'absenceTypeId' },
    map: absenceV3,
    doc: { summary: 'Absences, paged', response: schema, errors: [400, 403] },
  }),
  'absence.get': getEndpoint<Absence>({
    call: (c) => c.hrm.absence.get,
    map: absenceV3,
    doc: { summary: 'One absence', response: schema, errors: [403, 404] },
  }),
  'absence.report': commandEndpoint<z.infer<typeof reportRequest.schema>, { data: never }, Absence>({
    call: (c) => c.hrm.absence.report,
    mapInput: (body) => ({ data: body as never }),
    map: absenceV3,
    status: 201,
    doc: {
      summary: 'Reports an absence; without an end date it is ongoing',
      request: reportRequest,
      response: schema,
      errors: [400, 403, 422],
    },
  }),
  'absence.close': commandEndpoint<{ endDate: string }, { id: string; endDate: string }, Absence>({
    call: (c) => c.hrm.absence.close,
    withId: true,
    mapInput: (body, id) => ({ id: id as string, endDate: body.endDate }),
    map: absenceV3,
    status: 200,
    doc: {
      summary: 'Closes an ongoing absence: sets its end date (not before its start)',
      request: closeRequest,
      response: schema,
      errors: [400, 403, 404, 422],
    },
  }),
};
