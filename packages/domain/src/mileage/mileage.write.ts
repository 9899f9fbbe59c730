import type { TenantReader } from '@bo/db';
import { BookingRefused } from '../hours/hours/hours.write.js';
import { dateText, optionalDateText } from '../projects/sql-writes.js';
import type { EntityCreate, EntityUpdate, SqlWriteContext } from '../shared/entity/index.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateMileageInput, UpdateMileageInput } from './mileage.schema.js';

/** The related hours (2021) are hours of the same employee. */
async function checkRelatedHours(sql: TenantReader, employeeId: string, relatedHoursId: string | null | undefined) {
  if (!relatedHoursId) return;
  const [h] = await sql.read<{ employeeId: string }>(
    'SELECT employee_id AS "employeeId" FROM hour_registration WHERE environment_id = $1 AND id = $2',
    [relatedHoursId],
  );
  if (h && h.employeeId !== employeeId) {
    throw new ValidationError([
      { path: 'relatedHoursId', message: 'The related hours are hours of another employee.', code: 'mismatch' },
    ]);
  }
}

async function assertOpenProject(sql: TenantReader, projectId: string) {
  const [p] = await sql.read<{ name: string; closed: boolean }>(
    `SELECT p.name, COALESCE(ps.is_closed, false) AS closed
       FROM project p LEFT JOIN project_status ps ON ps.environment_id = $1 AND ps.id = p.project_status_id
      WHERE p.environment_id = $1 AND p.id = $2`,
    [projectId],
  );
  if (p?.closed) throw new BookingRefused('project_closed', `The project ${p.name} is closed; nothing can be booked on it.`);
}

/** An approved or invoiced mileage can no longer change (read from the row the write has locked); answers its employee. */
async function assertChangeable(sql: TenantReader, id: string): Promise<{ employeeId: string }> {
  const [m] = await sql.read<{ invoiceId: string | null; approvalStatus: string; employeeId: string }>(
    `SELECT invoice_id AS "invoiceId", approval_status AS "approvalStatus", employee_id AS "employeeId"
       FROM mileage WHERE environment_id = $1 AND id = $2`,
    [id],
  );
  if (!m) throw new NotFoundError('mileage', id);
  if (m.invoiceId || m.approvalStatus === 'approved') {
    throw new BookingRefused(
      'mileage_locked',
      `The mileage is ${m.invoiceId ? 'invoiced' : 'approved'}; it can no longer change.`,
    );
  }
  return m;
}

export const createMileage: EntityCreate<CreateMileageInput> = {
  async run({ sql, now }, input) {
    await assertOpenProject(sql, input.projectId);
    await checkRelatedHours(sql, input.employeeId, input.relatedHoursId);
    const id = newEntityId('mileage');
    await sql.insert('mileage', {
      id,
      employee_id: input.employeeId,
      project_id: input.projectId,
      start_date: dateText(input.startDate),
      mileage: input.distance,
      related_hours_id: input.relatedHoursId ?? null,
      source: input.source ?? null,
      note: input.note ?? null,
      updated_at: now,
    });
    return id;
  },
};

export const updateMileage: EntityUpdate<UpdateMileageInput> = {
  async run({ sql, now }, id, input) {
    const current = await assertChangeable(sql, id);
    await checkRelatedHours(sql, current.employeeId, input.relatedHoursId);
    await sql.update('mileage', id, {
      mileage: input.distance,
      start_date: optionalDateText(input.startDate),
      related_hours_id: input.relatedHoursId,
      source: input.source,
      note: input.note,
      updated_at: now,
    });
  },
};

export async function removeMileage({ sql }: SqlWriteContext, id: string): Promise<void> {
  await assertChangeable(sql, id);
  await sql.deleteById('mileage', id);
}
