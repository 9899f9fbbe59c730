import type { EntityRemove, WriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError } from '../../shared/errors.js';

/**
 * What keeps an employee from being deleted (2022-07), each as a readable reason:
 * the one place every such check lives. Hour registrations join here when their
 * table exists (one more count in the statement below).
 */
export async function employeeDeletionBlockers(w: WriteContext, employeeId: string): Promise<string[]> {
  const [row] = await w.sql.read<{ assignments: number; projects: number; leave: number; absences: number }>(
    `SELECT
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
  say(row?.assignments, 'assignment(s)');
  say(row?.projects, 'project membership(s)');
  say(row?.leave, 'leave entr(y/ies)');
  say(row?.absences, 'absence(s)');
  return out;
}

/** Deletes an employee that nothing refers to; otherwise says what does. Timetables, contracts and team memberships go with it. */
export const removeEmployee: EntityRemove = async (w, id) => {
  const blockers = await employeeDeletionBlockers(w, id);
  if (blockers.length) {
    throw new BusinessRuleError(
      `Employee ${id} cannot be deleted: it still has ${blockers.join(', ')}. Remove those first, or set the employee to inactive.`,
    );
  }
  await w.sql.deleteById('employee', id);
};
