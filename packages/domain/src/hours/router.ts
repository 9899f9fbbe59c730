import { z } from 'zod';
import {
  entityCreate,
  entityCreateCommand,
  entityDelete,
  entityQueries,
  entityUpdate,
  entityUpdateCommand,
  listQuerySchema,
} from '../shared/entity/index.js';
import { moduleProcedure, router } from '../trpc.js';
import { approval, approvalStatus } from './approval/approval.entity.js';
import {
  approvalInput,
  approvalUpdateInput,
  periodInput,
  submissionQuery,
  submissionStatus,
  weekInput,
} from './approval/approval.schema.js';
import {
  approveWeek,
  changeApproval,
  decideWeek,
  rejectWeek,
  submissionStatuses,
  submitPeriod,
  submitWeek,
  withdrawApproval,
} from './approval/approval.write.js';
import { hours } from './hours/hours.entity.js';
import { costsBookableService, hoursBookableService } from './projectservices/bookable-service.entity.js';
import { listTimesheet, timesheetRowSchema } from './timesheet/timesheet.query.js';
import {
  createTimesheetRow,
  createTimesheetRowInput,
  listTimesheetRows,
  mostRecentPeriod,
  mostRecentQuery,
  orderInput,
  orderTimesheetRows,
  timesheetRow,
  timesheetRowsQuery,
} from './timesheet/timesheet-row.js';
import { createHoursInput, updateHoursInput } from './hours/hours.schema.js';
import { createHours, removeHours, updateHours } from './hours/hours.write.js';
import { hourType } from './hourstype/hourstype.entity.js';
import { createHourTypeInput, updateHourTypeInput } from './hourstype/hourstype.schema.js';
import { createHourType, updateHourType } from './hourstype/hourstype.write.js';

const idOut = z.object({ id: z.string() });

export const hoursRouter = router({
  hourstype: router({
    ...entityQueries(hourType),
    create: entityCreate(hourType, createHourTypeInput, createHourType),
    update: entityUpdate(hourType, updateHourTypeInput, updateHourType),
    delete: entityDelete(hourType),
  }),
  /** hour registrations: the booking rules in hours.write.ts */
  hours: router({
    ...entityQueries(hours),
    create: entityCreate(hours, createHoursInput, createHours),
    update: entityUpdate(hours, updateHoursInput, updateHours),
    delete: entityDelete(hours, removeHours),
    /** commands answering the hours as stored */
    createCommand: entityCreateCommand(hours, createHoursInput, createHours),
    updateCommand: entityUpdateCommand(hours, updateHoursInput, updateHours),
  }),
  /** the rows of the employees' timesheets: their hours summed per week, service and hour type */
  timesheet: router({
    list: moduleProcedure('hours', 'read')
      .input(listQuerySchema)
      .output(z.object({ items: z.array(timesheetRowSchema), count: z.number().int().nullable() }))
      .query(({ ctx, input }) => listTimesheet(ctx, input)),
  }),
  /** the rows of employees' timesheets (v2 hours/timesheetrow) */
  timesheetrow: router({
    list: moduleProcedure('hours', 'read')
      .input(timesheetRowsQuery)
      .output(z.array(timesheetRow.schema))
      .query(({ ctx, input }) => listTimesheetRows(ctx, input)),
    create: moduleProcedure('hours', 'write')
      .input(createTimesheetRowInput)
      .output(idOut)
      .mutation(({ ctx, input }) => createTimesheetRow(ctx, input)),
    mostRecent: moduleProcedure('hours', 'read')
      .input(mostRecentQuery)
      .output(z.object({ startDate: z.string().nullable(), endDate: z.string().nullable() }))
      .query(({ ctx, input }) => mostRecentPeriod(ctx, input)),
    order: moduleProcedure('hours', 'write')
      .input(orderInput)
      .output(z.object({ ids: z.array(z.string()) }))
      .mutation(({ ctx, input }) => orderTimesheetRows(ctx, input)),
    delete: entityDelete(timesheetRow),
  }),
  approvalstatus: router({ ...entityQueries(approvalStatus) }),
  /** the project services hours, or costs, can be booked on (read-only) */
  projectservices: router({ ...entityQueries(hoursBookableService) }),
  costprojectservices: router({ ...entityQueries(costsBookableService) }),
  /** the weekly approval flow; every transition is a row of hours/approval */
  approval: router({
    ...entityQueries(approval),
    create: moduleProcedure('hours', 'write')
      .input(z.object({ data: approvalInput }))
      .output(idOut)
      .mutation(({ ctx, input }) => decideWeek(ctx, input.data)),
    update: moduleProcedure('hours', 'write')
      .input(z.object({ id: z.string().min(1), data: approvalUpdateInput }))
      .output(idOut)
      .mutation(({ ctx, input }) => changeApproval(ctx, input.id, input.data)),
    delete: moduleProcedure('hours', 'write')
      .input(z.object({ id: z.string().min(1) }))
      .output(idOut)
      .mutation(({ ctx, input }) => withdrawApproval(ctx, input.id)),
    submit: moduleProcedure('hours', 'write')
      .input(weekInput)
      .output(idOut)
      .mutation(({ ctx, input }) => submitWeek(ctx, input)),
    approve: moduleProcedure('hours', 'write')
      .input(weekInput)
      .output(idOut)
      .mutation(({ ctx, input }) => approveWeek(ctx, input)),
    reject: moduleProcedure('hours', 'write')
      .input(weekInput)
      .output(idOut)
      .mutation(({ ctx, input }) => rejectWeek(ctx, input)),
    submitPeriod: moduleProcedure('hours', 'write')
      .input(periodInput)
      .output(z.object({ ids: z.array(z.string()) }))
      .mutation(({ ctx, input }) => submitPeriod(ctx, input)),
    submissions: moduleProcedure('hours', 'read')
      .input(submissionQuery)
      .output(z.array(submissionStatus))
      .query(({ ctx, input }) => submissionStatuses(ctx, input)),
  }),
});
