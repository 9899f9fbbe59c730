import type { TenantReader } from '@bo/db';
import type { EntityCreate, EntityUpdate, ReferenceCheck } from '../../shared/entity/index.js';
import { ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { assignmentStatus } from '../reference/assignmentstatus.entity.js';
import { optionalDateText } from '../sql-writes.js';
import type { CreateAssignmentInput, UpdateAssignmentInput } from './assignment.schema.js';

/**
 * The employees named become exactly the assignment's employees: one statement, queued; the
 * others go, the named ones stay or come (a link's own id is never shown).
 */
async function writeEmployees(sql: TenantReader, assignmentId: string, list: { id: string }[] | undefined) {
  if (!list) return;
  const unique = [...new Set(list.map((e) => e.id))];
  await sql.queue(
    `WITH gone AS (
       DELETE FROM assignment_employee
        WHERE environment_id = $1 AND assignment_id = $2 AND NOT (employee_id = ANY($3::text[])))
     INSERT INTO assignment_employee (environment_id, id, assignment_id, employee_id)
     SELECT $1, n.id, $2, n.employee_id FROM unnest($3::text[], $4::text[]) AS n(employee_id, id)
     ON CONFLICT (assignment_id, employee_id) DO NOTHING`,
    [assignmentId, unique, unique.map(() => newEntityId('assignmentemployee'))],
  );
}

/** The status must be one of the environment's, and not a blocked one. */
function statusReferences(input: { statusId?: string | null }): ReferenceCheck[] {
  return [{ path: 'statusId', target: assignmentStatus, id: input.statusId }];
}

async function assertStatusOpen(sql: TenantReader, statusId: string | null | undefined) {
  if (!statusId) return;
  const [status] = await sql.read<{ name: string; isBlocked: boolean }>(
    'SELECT name, is_blocked AS "isBlocked" FROM assignment_status WHERE environment_id = $1 AND id = $2',
    [statusId],
  );
  if (status?.isBlocked) {
    throw new ValidationError([
      { path: 'statusId', message: `The assignment status "${status.name}" is blocked and cannot be chosen.`, code: 'blocked' },
    ]);
  }
}

/** Plans work on an hour type line; the project and service are those of the line. */
export const createAssignment: EntityCreate<CreateAssignmentInput> = {
  references: statusReferences,
  async run({ sql, now }, input) {
    await assertStatusOpen(sql, input.statusId);
    if (input.startDate && input.endDate && input.endDate < input.startDate) {
      throw new ValidationError([
        { path: 'endDate', message: 'The end date lies before the start date.', code: 'invalid_period' },
      ]);
    }
    const id = newEntityId('assignment');
    // the project and service are copied from the line (checked with the references) by PostgreSQL: nothing read
    await sql.queue(
      `INSERT INTO assignment (environment_id, id, project_id, project_service_id, project_hour_type_id, name, description,
                               start_date, end_date, hours_type, hours, use_spread, assignment_status_id, updated_at)
       SELECT $1, $2, s.project_id, l.project_service_id, l.id, $4::text, $5::text, $6::date, $7::date, $8::text, $9::numeric,
              $10::boolean, $11::text, $12::timestamptz
         FROM project_service_hour_type l
         JOIN project_service s ON s.environment_id = $1 AND s.id = l.project_service_id
        WHERE l.environment_id = $1 AND l.id = $3`,
      [
        id,
        input.projectHourTypeId,
        input.name ?? null,
        input.description ?? null,
        optionalDateText(input.startDate) ?? null,
        optionalDateText(input.endDate) ?? null,
        input.hoursType ?? 'total',
        input.hours ?? null,
        input.useSpread ?? false,
        input.statusId ?? null,
        now,
      ],
    );
    await writeEmployees(sql, id, input.employees);
    return id;
  },
};

export const updateAssignment: EntityUpdate<UpdateAssignmentInput> = {
  references: statusReferences,
  async run({ sql, now }, id, input) {
    await assertStatusOpen(sql, input.statusId);
    await sql.update('assignment', id, {
      name: input.name,
      description: input.description,
      hours_type: input.hoursType,
      hours: input.hours,
      use_spread: input.useSpread,
      assignment_status_id: input.statusId,
      updated_at: now,
    });
    await writeEmployees(sql, id, input.employees);
  },
};
