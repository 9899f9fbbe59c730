import { getEntity, inSqlWrite, recordChange, type SqlWriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError } from '../../shared/errors.js';
import type { UserContext } from '../../trpc.js';
import { employee } from './employee.entity.js';

/**
 * 2023-11: an employee can be set to unemployed (out of employment) only when the
 * employee's user is blocked and every timetable of the employee has an end date.
 * A user is blocked when its account is no longer active; an employee without a user
 * has no account that could still work, so that condition holds. The message names
 * each condition that fails.
 */
export async function assertEmploymentMayEnd(w: SqlWriteContext, employeeId: string): Promise<void> {
  // users are global rows: on a cluster other than the first they are read on the first (sql.global)
  const users = w.sql.global;
  const [row] = await w.sql.read<{ userId: string | null; userActive: boolean | null; open: number }>(
    `SELECT e.user_id AS "userId", ${users ? 'NULL::boolean' : 'u.is_active'} AS "userActive",
            (SELECT count(*)::int FROM timetable t
              WHERE t.environment_id = $1 AND t.employee_id = e.id AND t.end_date IS NULL) AS open
       FROM employee e ${users ? '' : 'LEFT JOIN user_account u ON u.id = e.user_id AND u.environment_id = $1'}
      WHERE e.environment_id = $1 AND e.id = $2`,
    [employeeId],
  );
  if (row?.userId && users) {
    const [user] = await users.read<{ active: boolean }>(
      'SELECT is_active AS active FROM user_account WHERE environment_id = $1 AND id = $2',
      [row.userId],
    );
    row.userActive = user?.active ?? null;
  }
  if (!row) return;
  const failures: string[] = [];
  if (row.userId && row.userActive !== false) {
    failures.push(`the employee's user ${row.userId} is not blocked (block the user first)`);
  }
  if (row.open > 0) {
    failures.push(`${row.open} timetable${row.open === 1 ? ' has' : 's have'} no end date (give every timetable an end date)`);
  }
  if (failures.length) {
    throw new BusinessRuleError(`The employee cannot be set to unemployed: ${failures.join('; ')}.`);
  }
}

/** employee.endEmployment: the employee's status becomes unemployed, under the 2023-11 rule. */
export async function endEmployment(ctx: UserContext, id: string) {
  await inSqlWrite(ctx, async (w) => {
    if (!(await w.sql.lockForUpdate('employee', id))) throw new NotFoundError('employee', id);
    await assertEmploymentMayEnd(w, id);
    const [status] = await w.sql.read<{ id: string }>(
      `SELECT id FROM employee_status WHERE environment_id = $1 AND key = 'unemployed'`,
    );
    await w.sql.update('employee', id, { status_id: status?.id ?? null, employment_status: 'inactive', updated_at: w.now });
    await recordChange(w, employee, id, 'updated', false);
  });
  return getEntity(ctx, employee, id);
}
