import type { TimesheetRow } from '@bo/domain/hours/timesheet/timesheet.query';
import { z } from 'zod';
import { listEndpoint, type NamedSchema } from './types.js';

const TimesheetRowV3 = z.object({
  employeeId: z.string(),
  weekStart: z.string(),
  projectId: z.string(),
  projectServiceId: z.string(),
  hourTypeId: z.string(),
  days: z.array(z.object({ date: z.string(), minutes: z.number().int() })),
  totalMinutes: z.number().int(),
  status: z.string(),
});
const schema: NamedSchema = { name: 'Hours.TimesheetRow', schema: TimesheetRowV3 };

export function timesheetRowV3(r: TimesheetRow): z.infer<typeof TimesheetRowV3> {
  return {
    employeeId: r.employeeId,
    weekStart: r.weekStart,
    projectId: r.projectId,
    projectServiceId: r.projectServiceId,
    hourTypeId: r.hourTypeId,
    days: r.days.map((d) => ({ date: d.date, minutes: d.minutes })),
    totalMinutes: r.totalMinutes,
    status: r.status,
  };
}

/** v3 takes one employee and one project at a time here: the parameters take one value each. */
const one = (path: string) => ({ path, value: 'one' }) as const;

export const timesheetEndpoints = {
  'timesheet.list': listEndpoint<TimesheetRow>({
    call: (c) => c.hours.timesheet.list,
    filters: {
      employeeId: one('employeeId'),
      projectId: one('projectId'),
      'date[ge]': { path: 'startDate', op: 'ge', value: 'date' },
      'date[le]': { path: 'startDate', op: 'le', value: 'date' },
    },
    map: timesheetRowV3,
    doc: {
      summary: 'Timesheet rows: minutes per day of each employee, ISO week, service and hour type; paged',
      response: schema,
      errors: [400, 403],
    },
  }),
};
