import { columnsOf } from '../../shared/entity/columns.js';
import type { EntityCreate, EntityUpdate, ReferenceCheck, SqlWriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { civilStatus, employeeStatus, employeeType, team } from '../reference/hrm-lookups.entity.js';
import { assertEmploymentMayEnd } from './end-employment.js';
import { employee } from './employee.entity.js';
import type { CreateEmployeeInput, UpdateEmployeeInput } from './employee.schema.js';

const references = (input: UpdateEmployeeInput): ReferenceCheck[] => [
  { path: 'status.id', target: employeeStatus, id: input.status?.id },
  { path: 'supervisor.id', target: employee, id: input.supervisor?.id },
  { path: 'civilStatusId', target: civilStatus, id: input.civilStatusId },
  { path: 'employeeTypeId', target: employeeType, id: input.employeeTypeId },
  ...(input.teams ?? []).map((t, n) => ({ path: `teams.${n}.id`, target: team, id: t.id })),
];

/** The full name of the linked person: the employee's name follows it (2023-04). */
async function personName(w: SqlWriteContext, personId: string): Promise<string> {
  const [row] = await w.sql.read<{ name: string | null }>(
    `SELECT COALESCE(NULLIF(full_name, ''), NULLIF(trim(concat_ws(' ', first_name, family_name_prefix, family_name)), '')) AS name
       FROM person WHERE environment_id = $1 AND id = $2`,
    [personId],
  );
  return row?.name ?? personId;
}

/** The status row a write names (by id, or by the active/inactive key), with its key. */
async function statusOf(w: SqlWriteContext, input: UpdateEmployeeInput): Promise<{ id: string; key: string } | undefined> {
  if (input.status === null) return undefined;
  if (input.status) {
    const [row] = await w.sql.read<{ id: string; key: string }>(
      'SELECT id, key FROM employee_status WHERE environment_id = $1 AND id = $2',
      [input.status.id],
    );
    return row;
  }
  if (input.employmentStatus) {
    const [row] = await w.sql.read<{ id: string; key: string }>(
      'SELECT id, key FROM employee_status WHERE environment_id = $1 AND key = $2',
      [input.employmentStatus],
    );
    return row ?? { id: '', key: input.employmentStatus };
  }
  return undefined;
}

async function columns(w: SqlWriteContext, id: string | null, input: UpdateEmployeeInput) {
  const status = await statusOf(w, input);
  if (status?.key === 'unemployed') {
    if (!id) {
      throw new BusinessRuleError(
        'A new employee cannot start out of employment: create the employee, then end the employment (2023-11).',
      );
    }
    // the rule is about becoming unemployed: an employee who is already stays so without a check
    const [current] = await w.sql.read<{ key: string | null }>(
      `SELECT s.key FROM employee e LEFT JOIN employee_status s ON s.environment_id = $1 AND s.id = e.status_id
        WHERE e.environment_id = $1 AND e.id = $2`,
      [id],
    );
    if (current?.key !== 'unemployed') await assertEmploymentMayEnd(w, id);
  }
  if (id && input.supervisor?.id === id) {
    throw new ValidationError([{ path: 'supervisor.id', message: 'An employee cannot supervise itself.', code: 'invalid' }]);
  }
  const name = input.personId ? await personName(w, input.personId) : input.name;
  return {
    name,
    personId: input.personId,
    userId: input.userId,
    function: input.function,
    workEmail: input.workEmail,
    workPhone: input.workPhone,
    workMobile: input.workMobile,
    bankAccount: input.bankAccount,
    hourlySalesTariff: input.hourlySalesTariff,
    hourlyCostTariff: input.hourlyCostTariff,
    civilStatusId: input.civilStatusId,
    employeeTypeId: input.employeeTypeId,
    supervisorId: input.supervisor === null ? null : input.supervisor?.id,
    ...(input.status === null ? { statusId: null } : {}),
    ...(status ? { statusId: status.id || undefined, employmentStatus: status.key === 'active' ? 'active' : 'inactive' } : {}),
  };
}

/** The teams named become exactly the employee's teams (each membership a new row, as before). Both statements queued. */
async function writeTeams(w: SqlWriteContext, employeeId: string, teams: { id: string }[] | undefined) {
  if (!teams) return;
  await w.sql.queue('DELETE FROM team_employee WHERE environment_id = $1 AND employee_id = $2', [employeeId]);
  const unique = [...new Set(teams.map((t) => t.id))];
  if (unique.length === 0) return;
  await w.sql.queue(
    `INSERT INTO team_employee (environment_id, id, team_id, employee_id)
     SELECT $1, t.id, t.team_id, $2 FROM unnest($3::text[], $4::text[]) AS t(id, team_id)`,
    [employeeId, unique.map(() => newEntityId('teamemployee')), unique],
  );
}

export const createEmployee: EntityCreate<CreateEmployeeInput> = {
  references,
  async run(w, input) {
    const id = newEntityId('employee');
    const data = await columns(w, null, { employmentStatus: 'active', ...input });
    await w.sql.insert('employee', { ...columnsOf(data), name: data.name ?? '', id, updated_at: w.now });
    await writeTeams(w, id, input.teams);
    return id;
  },
};

export const updateEmployee: EntityUpdate<UpdateEmployeeInput> = {
  references,
  async run(w, id, input) {
    await w.sql.update('employee', id, { ...columnsOf(await columns(w, id, input)), updated_at: w.now });
    await writeTeams(w, id, input.teams);
  },
};
