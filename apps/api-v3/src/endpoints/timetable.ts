import type { Timetable } from '@bo/domain/hrm/timetable/timetable.entity';
import { z } from 'zod';
import { listEndpoint, type NamedSchema } from './types.js';

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

export const timetableEndpoints = {
  'timetable.list': listEndpoint<Timetable>({
    call: (c) => c.hrm.timetable.list,
    filters: { employeeId: 'employeeId' },
    map: timetableV3,
    doc: { summary: 'Timetables, paged; per employee with employeeId', response: schema, errors: [400, 403] },
  }),
};
