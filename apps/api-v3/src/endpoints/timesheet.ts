import type { TimesheetRow } from '@bo/domain/hours/timesheet/timesheet.query';
import { z } from 'zod';
import { type NamedSchema, pagedQueryEndpoint } from './types.js';

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

export const timesheetEndpoints = {
  'timesheet.list': pagedQueryEndpoint<TimesheetRow>({
    call: (c) => c.hours.timesheet.page,
    filters: ['employeeId', 'projectId', 'date[ge]', 'date[le]'],
    doc: {
      summary: 'Timesheet rows: minutes per day of each employee, ISO week, service and hour type; paged',
      response: schema,
      errors: [400, 403],
    },
  }),
};
