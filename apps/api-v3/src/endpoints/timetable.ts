import type { Timetable } from '@bo/domain/hrm/timetable/timetable.entity';
import { z } from 'zod';
import { commandEndpoint, listEndpoint, type NamedSchema } from './types.js';

const day = z.object({ startTime: z.number().nullable(), endTime: z.number().nullable(), hours: z.number() });
const week = z.object({ day1: day, day2: day, day3: day, day4: day, day5: day, day6: day, day7: day });

const TimetableV3 = z.object({
  id: z.string(),
  employee: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  hasOddWeeks: z.boolean(),
  evenWeek: week,
  oddWeek: week,
  productivityTarget: z.number().int().nullable(),
  shouldWriteHours: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const schema: NamedSchema = { name: 'Hrm.Timetable', schema: TimetableV3 };

type Week = z.infer<typeof week>;
const weekV3 = (w: Timetable['evenWeek']): Week =>
  Object.fromEntries(
    Object.entries(w).map(([k, d]) => [k, { startTime: d.startTime ?? null, endTime: d.endTime ?? null, hours: d.hours }]),
  ) as Week;

export function timetableV3(t: Timetable): z.infer<typeof TimetableV3> {
  return {
    id: t.id,
    employee: t.employee ? { id: t.employee.id, name: t.employee.name } : null,
    startDate: t.startDate,
    endDate: t.endDate,
    hasOddWeeks: t.hasOddWeeks,
    evenWeek: weekV3(t.evenWeek),
    oddWeek: weekV3(t.oddWeek),
    productivityTarget: t.productivityTarget,
    shouldWriteHours: t.shouldWriteHours,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

const dayIn = z
  .object({ startTime: z.number().nullable().optional(), endTime: z.number().nullable().optional(), hours: z.number() })
  .strict();
const weekIn = z.object({ day1: dayIn, day2: dayIn, day3: dayIn, day4: dayIn, day5: dayIn, day6: dayIn, day7: dayIn }).strict();
const writable = {
  endDate: z.string().nullable().optional(),
  hasOddWeeks: z.boolean().optional(),
  oddWeek: weekIn.nullable().optional(),
  productivityTarget: z.number().int().nullable().optional(),
  shouldWriteHours: z.boolean().optional(),
};
const createRequest: NamedSchema = {
  name: 'Hrm.Timetable.Create',
  schema: z.object({ employeeId: z.string(), startDate: z.string(), evenWeek: weekIn, ...writable }).strict(),
};
const editRequest: NamedSchema = {
  name: 'Hrm.Timetable.Edit',
  schema: z.object({ startDate: z.string().optional(), evenWeek: weekIn.optional(), ...writable }).strict(),
};

export const timetableEndpoints = {
  'timetable.list': listEndpoint<Timetable>({
    call: (c) => c.hrm.timetable.list,
    filters: { employeeId: 'employeeId' },
    map: timetableV3,
    doc: { summary: 'Timetables, paged; per employee with employeeId', response: schema, errors: [400, 403] },
  }),
  'timetable.create': commandEndpoint<Record<string, unknown>, { data: never }, { id: string }>({
    call: (c) => c.hrm.timetable.create,
    mapInput: (body) => ({ data: body as never }),
    map: async (r, c) => timetableV3(await c.hrm.timetable.get({ id: r.id })),
    status: 201,
    doc: {
      summary: 'Creates a timetable, validated strictly (2024-10): period in order, no overlap, complete weeks, 0–24 hours a day',
      request: createRequest,
      response: schema,
      errors: [400, 403, 422],
    },
  }),
  'timetable.edit': commandEndpoint<Record<string, unknown>, { id: string; data: never }, { id: string }>({
    call: (c) => c.hrm.timetable.update,
    withId: true,
    mapInput: (body, id) => ({ id: id as string, data: body as never }),
    map: async (r, c) => timetableV3(await c.hrm.timetable.get({ id: r.id })),
    status: 200,
    doc: {
      summary: 'Changes a timetable, validated as strictly as its creation',
      request: editRequest,
      response: schema,
      errors: [400, 403, 404, 422],
    },
  }),
};
