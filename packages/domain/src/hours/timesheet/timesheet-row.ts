import { z } from 'zod';
import { assertReferences, inSqlWrite, recordChange, type TargetEntity } from '../../shared/entity/index.js';
import { defineEntity, f } from '../../shared/entity/index.js';
import { employee } from '../../hrm/employee/employee.entity.js';
import { projectService } from '../../projects/service/project-service.entity.js';
import { NotFoundError, ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { dateInput } from '../../shared/numbers.js';
import type { UserContext } from '../../trpc.js';
import { BookingRefused } from '../hours/hours.write.js';
import { targets } from '../../shared/entity/targets.js';

/** A row of an employee's timesheet for a period: what the employee books on (hours/timesheetrow). */
export const timesheetRow = defineEntity({
  type: 'timesheetrow',
  table: 'timesheet_row',
  module: 'hours',
  defaultSort: [
    { path: 'position', dir: 'asc' },
    { path: 'id', dir: 'asc' },
  ],
  fields: {
    id: f.id(),
    employeeId: f.requiredString({ references: () => targets.employee }),
    projectId: f.requiredString({ references: () => targets.project }),
    projectServiceId: f.requiredString({ references: () => targets.projectService }),
    // an hour type or a cost type, as the row's type says: checked as one the service carries (createTimesheetRow)
    itemTypeId: f.requiredString({ writable: false }),
    type: f.requiredString(),
    startDate: f.date(),
    endDate: f.date(),
    position: f.requiredInteger(),
    /** the project, service and item type as the row shows them */
    view: f.computed(
      'json',
      z.object({
        project: z.object({ id: z.string(), name: z.string(), projectNumber: z.string().nullable() }).nullable(),
        service: z
          .object({ id: z.string(), name: z.string(), from: z.string().nullable(), until: z.string().nullable() })
          .nullable(),
        item: z
          .object({
            id: z.string(),
            name: z.string(),
            unitName: z.string().nullable(),
            isUnitTariff: z.boolean(),
            isAttachmentAllowed: z.boolean(),
          })
          .nullable(),
      }),
      (a) => `SELECT json_build_object(
          'project', (SELECT json_build_object('id', p.id, 'name', p.name, 'projectNumber', p.project_number) FROM project p WHERE p.id = ${a}.project_id),
          'service', (SELECT json_build_object('id', s.id, 'name', s.name, 'from', to_char(s.write_hours_start_date, 'YYYY-MM-DD'),
                              'until', to_char(s.write_hours_end_date, 'YYYY-MM-DD')) FROM project_service s WHERE s.id = ${a}.project_service_id),
          'item', COALESCE(
            (SELECT json_build_object('id', h.id, 'name', h.label, 'unitName', NULL, 'isUnitTariff', false, 'isAttachmentAllowed', false)
               FROM hour_type h WHERE h.id = ${a}.item_type_id),
            (SELECT json_build_object('id', c.id, 'name', c.label, 'unitName', c.unit_name, 'isUnitTariff', c.is_unit_tariff,
                                      'isAttachmentAllowed', c.is_attachment_allowed)
               FROM cost_type c WHERE c.id = ${a}.item_type_id)))`,
    ),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type TimesheetRowRecord = z.infer<typeof timesheetRow.schema>;

export const timesheetRowsQuery = z.object({
  startDate: dateInput,
  endDate: dateInput,
  employeeId: z.string().min(1).optional(),
});
export const createTimesheetRowInput = z.object({
  employeeId: z.string().min(1),
  projectServiceId: z.string().min(1),
  itemTypeId: z.string().min(1),
  type: z.enum(['hours', 'costs', 'mileage']).default('hours'),
  startDate: dateInput,
  endDate: dateInput,
});
export const mostRecentQuery = z.object({
  beforeDate: dateInput,
  employeeId: z.string().min(1),
  type: z.enum(['hours', 'costs', 'mileage']).optional(),
});
export const orderInput = z.object({ ids: z.array(z.string().min(1)).min(1).max(500) });

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The rows of a period (overlapping it), in their order. */
export async function listTimesheetRows(ctx: UserContext, q: z.infer<typeof timesheetRowsQuery>): Promise<TimesheetRowRecord[]> {
  if (q.endDate < q.startDate) {
    throw new ValidationError([{ path: 'endDate', message: 'The end lies before the start.', code: 'invalid_period' }]);
  }
  const ids = await ctx.sql.read<{ id: string }>(
    `SELECT id FROM timesheet_row WHERE environment_id = $1 AND ($2::text IS NULL OR employee_id = $2)
        AND start_date <= $4::date AND end_date >= $3::date
      ORDER BY employee_id, position, id LIMIT 500`,
    [q.employeeId ?? null, iso(q.startDate), iso(q.endDate)],
  );
  const rows = (await timesheetRow.loader.byIds(
    ctx.sql,
    ids.map((r) => r.id),
  )) as TimesheetRowRecord[];
  const order = new Map(ids.map((r, i) => [r.id, i]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/** Adds a row: the item type must be one of the service (an hour type for hours, a cost type for costs). */
export async function createTimesheetRow(ctx: UserContext, input: z.infer<typeof createTimesheetRowInput>) {
  if (input.endDate < input.startDate) {
    throw new ValidationError([{ path: 'endDate', message: 'The end lies before the start.', code: 'invalid_period' }]);
  }
  return inSqlWrite(ctx, async (w) => {
    await assertReferences(w.sql, [
      { path: 'employeeId', target: employee, id: input.employeeId },
      { path: 'projectServiceId', target: projectService as TargetEntity, id: input.projectServiceId },
    ]);
    // the service's project, whether it carries the item type, and the employee's next position: one statement
    const [service] = await w.sql.read<{ projectId: string; carried: boolean; position: number }>(
      `SELECT s.project_id AS "projectId",
              CASE WHEN $3 = 'costs'
                THEN EXISTS (SELECT 1 FROM project_service_cost_type c
                              WHERE c.environment_id = $1 AND c.project_service_id = s.id AND c.cost_type_id = $4)
                ELSE EXISTS (SELECT 1 FROM project_service_hour_type h
                              WHERE h.environment_id = $1 AND h.project_service_id = s.id AND h.hour_type_id = $4)
              END AS carried,
              (SELECT COALESCE(max(r.position) + 1, 0)::int FROM timesheet_row r
                WHERE r.environment_id = $1 AND r.employee_id = $5) AS position
         FROM project_service s WHERE s.environment_id = $1 AND s.id = $2`,
      [input.projectServiceId, input.type, input.itemTypeId, input.employeeId],
    );
    if (!service) throw new NotFoundError('projectservice', input.projectServiceId);
    if (!service.carried) throw new BookingRefused('item_type_not_on_service', 'The item type is not one of the service.');
    const id = newEntityId('timesheetrow');
    await w.sql.insert('timesheet_row', {
      id,
      employee_id: input.employeeId,
      project_id: service.projectId,
      project_service_id: input.projectServiceId,
      item_type_id: input.itemTypeId,
      type: input.type,
      start_date: iso(input.startDate),
      end_date: iso(input.endDate),
      position: service.position,
      updated_at: w.now,
    });
    await recordChange(w, timesheetRow, id, 'created', false);
    return { id };
  });
}

/** The most recent period before a day that has rows of the employee (to copy last week's rows). */
export async function mostRecentPeriod(ctx: UserContext, q: z.infer<typeof mostRecentQuery>) {
  const [row] = await ctx.sql.read<{ start_date: string; end_date: string }>(
    `SELECT to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(end_date, 'YYYY-MM-DD') AS end_date FROM timesheet_row
      WHERE environment_id = $1 AND employee_id = $2 AND start_date < $3::date AND ($4::text IS NULL OR type = $4)
      ORDER BY start_date DESC, end_date DESC LIMIT 1`,
    [q.employeeId, iso(q.beforeDate), q.type ?? null],
  );
  return { startDate: row?.start_date ?? null, endDate: row?.end_date ?? null };
}

/** Orders rows: each named id gets its place in the list. */
export async function orderTimesheetRows(ctx: UserContext, input: z.infer<typeof orderInput>) {
  return inSqlWrite(ctx, async (w) => {
    const present = await w.sql.existingIds('timesheet_row', input.ids);
    const missing = input.ids.filter((id) => !present.has(id));
    if (missing.length) throw new NotFoundError('timesheetrow', missing[0]);
    for (const [position, id] of input.ids.entries()) {
      await w.sql.update('timesheet_row', id, { position, updated_at: w.now });
      await recordChange(w, timesheetRow, id, 'updated', false);
    }
    return { ids: input.ids };
  });
}
