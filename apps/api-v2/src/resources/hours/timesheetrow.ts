import {
  createTimesheetRowInput,
  mostRecentQuery,
  orderInput,
  type TimesheetRowRecord,
  timesheetRowsQuery,
} from '@bo/domain/hours/timesheet/timesheet-row';
import { z } from 'zod';
import { v2Names } from '../v2-names.js';
import { v2Operation } from '../v2-operation.js';
import { v2RowOperation } from '../v2-resource.js';

const listNames = v2Names({ 'q[start_date]': 'startDate', 'q[end_date]': 'endDate', 'q[employee_id]': 'employeeId' });
const recentNames = v2Names({ 'q[before_date]': 'beforeDate', 'q[employee_id]': 'employeeId', 'q[type]': 'type' });
const bodyNames = v2Names({
  project_service_id: 'projectServiceId',
  projectservice_id: 'projectServiceId',
  itemtype_id: 'itemTypeId',
});

/** A timesheet row as v2 shows it (reference: GetTimesheetRow); the service's period is its registration timeframe (2025-07). */
export function timesheetRowV2(r: TimesheetRowRecord) {
  const { project, service, item } = r.view;
  return {
    id: r.id,
    order: r.position,
    project: project ? { id: project.id, name: project.name, project_number: project.projectNumber } : null,
    project_service: service
      ? {
          id: service.id,
          name: service.name,
          start_date: service.from,
          until_date: service.until,
          purchase_start_date: null,
          purchase_end_date: null,
        }
      : null,
    itemtype: item
      ? {
          id: item.id,
          name: item.name,
          unit_name: item.unitName,
          is_unit_tariff: item.isUnitTariff,
          is_attachment_allowed: item.isAttachmentAllowed,
          has_workflow: false,
        }
      : null,
    person: null,
    organization: null,
    employee_id: r.employeeId,
    start_date: r.startDate,
    end_date: r.endDate,
    project_id: r.projectId,
    project_service_id: r.projectServiceId,
    itemtype_id: r.itemTypeId,
    type: r.type,
  };
}

const rowV2 = z.object({
  id: z.string(),
  order: z.number(),
  project: z.object({ id: z.string(), name: z.string(), project_number: z.string().nullable() }).nullable(),
  project_service: z
    .object({
      id: z.string(),
      name: z.string(),
      start_date: z.string().nullable(),
      until_date: z.string().nullable(),
      purchase_start_date: z.string().nullable(),
      purchase_end_date: z.string().nullable(),
    })
    .nullable(),
  itemtype: z
    .object({
      id: z.string(),
      name: z.string(),
      unit_name: z.string().nullable(),
      is_unit_tariff: z.boolean(),
      is_attachment_allowed: z.boolean(),
      has_workflow: z.boolean(),
    })
    .nullable(),
  person: z.null(),
  organization: z.null(),
  employee_id: z.string(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  project_id: z.string(),
  project_service_id: z.string(),
  itemtype_id: z.string(),
  type: z.string(),
});

/** hours/timesheetrow: GET (a period's rows), POST, GET mostrecent, PUT order (a JSON array of ids); DELETE /{id} below. */
export const timesheetRowV2Operations = [
  v2Operation({
    method: 'GET',
    path: 'hours/timesheetrow/mostrecent',
    summary: 'The most recent period before q[before_date] with timesheet rows of q[employee_id] (of q[type])',
    call: (c) => c.hours.timesheetrow.mostRecent,
    names: recentNames,
    input: mostRecentQuery,
    output: z.object({ start_date: z.string().nullable(), end_date: z.string().nullable() }),
    show: (r: { startDate: string | null; endDate: string | null }) => ({ start_date: r.startDate, end_date: r.endDate }),
  }),
  v2Operation({
    method: 'PUT',
    path: 'hours/timesheetrow/order',
    summary: 'Orders timesheet rows: the body is the JSON array of their ids, in order',
    call: (c) => c.hours.timesheetrow.order,
    names: v2Names(),
    input: orderInput,
    output: z.object({ ids: z.array(z.string()) }),
    arrayBody: 'ids',
  }),
  v2Operation({
    method: 'GET',
    path: 'hours/timesheetrow',
    summary: 'The timesheet rows of a period (q[start_date], q[end_date], q[employee_id])',
    call: (c) => c.hours.timesheetrow.list,
    names: listNames,
    input: timesheetRowsQuery,
    output: z.array(rowV2),
    show: (rows: TimesheetRowRecord[]) => rows.map(timesheetRowV2),
  }),
  v2Operation({
    method: 'POST',
    path: 'hours/timesheetrow',
    summary: 'Adds a timesheet row',
    call: (c) => c.hours.timesheetrow.create,
    names: bodyNames,
    input: createTimesheetRowInput,
    output: z.object({ id: z.string() }),
  }),
];

export const timesheetRowV2Delete = v2RowOperation({
  path: 'hours/timesheetrow',
  method: 'DELETE',
  names: v2Names(),
  call: (c) => (input) => c.hours.timesheetrow.delete({ id: input.id }),
});
