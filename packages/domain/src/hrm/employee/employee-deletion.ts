import type { SqlWriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError } from '../../shared/errors.js';

/**
 * What keeps an employee from being deleted (2022-07), each as a readable reason:
 * the one place every such check lives.
 */
export async function employeeDeletionBlockers(w: SqlWriteContext, employeeId: string): Promise<string[]> {
  const [row] = await w.sql.read<{ hours: number; assignments: number; projects: number; leave: number; absences: number }>(
    `SELECT
       (SELECT count(*)::int FROM hour_registration h WHERE h.environment_id = $1 AND h.employee_id = $2) AS hours,
       (SELECT count(*)::int FROM assignment_employee a WHERE a.environment_id = $1 AND a.employee_id = $2) AS assignments,
       (SELECT count(*)::int FROM project_employee p WHERE p.environment_id = $1 AND p.employee_id = $2) AS projects,
       (SELECT count(*)::int FROM leave l WHERE l.environment_id = $1 AND l.employee_id = $2) AS leave,
       (SELECT count(*)::int FROM absence a WHERE a.environment_id = $1 AND a.employee_id = $2) AS absences`,
    [employeeId],
  );
  const out: string[] = [];
  const say = (n: number | undefined, what: string) => {
    if (n) out.push(`${n} ${what}`);
  };
  say(row?.hours, 'hour registration(s)');
  say(row?.assignments, 'assignment(s)');
  say(row?.projects, 'project membership(s)');
  say(row?.leave, 'leave entr(y/ies)');
  say(row?.absences, 'absence(s)');
  return out;
}

/** Deletes an employee that nothing refers to; otherwise says what does. Timetables, contracts and team memberships go with it. */
export async function removeEmployee(w: SqlWriteContext, id: string): Promise<void> {
  const blockers = await employeeDeletionBlockers(w, id);
  if (blockers.length) {
    throw new BusinessRuleError(
      `Employee ${id} cannot be deleted: it still has ${blockers.join(', ')}. Remove those first, or set the employee to inactive.`,
    );
  }
  await w.sql.deleteById('employee', id);
}
