import { SCOPED_ENVIRONMENT } from '@bo/db';
import { createEntity, type EntityCreate, getEntity, inWrite, recordChange } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { UserContext } from '../../trpc.js';
import { leave } from './leave.entity.js';
import type { RequestLeaveInput } from './leave.schema.js';
import { assertBalance, holdEmployees, leaveReferences, leaveStatusId, leaveValues } from './leave.write.js';

/** leave.request: leave taken over a period, with status requested; refused when approving it would overdraw the balance. */
export const requestLeave: EntityCreate<RequestLeaveInput> = {
  references: leaveReferences,
  async run(w, i) {
    await holdEmployees(w, [i.employeeId]);
    const v = await leaveValues(w, i.employeeId, i);
    const id = newEntityId('leave');
    await w.tx.leave.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        employeeId: i.employeeId,
        leaveTypeId: i.leaveTypeId,
        leaveStatusId: await leaveStatusId(w, 'requested'),
        ...v,
        description: i.description ?? null,
        allowNegative: i.allowNegative ?? false,
      },
    });
    await assertBalance(
      w,
      { employeeId: i.employeeId, leaveTypeId: i.leaveTypeId, year: v.year },
      i.allowNegative ?? false,
      v.hours,
    );
    return id;
  },
};

export async function requestLeaveCommand(ctx: UserContext, input: RequestLeaveInput) {
  const { id } = await createEntity(ctx, leave, requestLeave, input);
  return getEntity(ctx, leave, id);
}

/** leave.approve and leave.reject: only requested leave is decided; approved leave counts against the balance. */
export async function decideLeave(ctx: UserContext, id: string, decision: 'approved' | 'rejected', allowNegative?: boolean) {
  await inWrite(ctx, async (w) => {
    // the entry, then its employee: the order every leave update takes its locks in
    if (!(await w.sql.lockForUpdate('leave', id))) throw new NotFoundError('leave', id);
    const [found] = await w.sql.read<{ employeeId: string }>(
      'SELECT employee_id AS "employeeId" FROM leave WHERE environment_id = $1 AND id = $2',
      [id],
    );
    await holdEmployees(w, found ? [found.employeeId] : []);
    const row = await w.tx.leave.findUniqueOrThrow({ where: { id }, include: { leaveStatus: true } });
    if (row.leaveStatus?.key !== 'requested') {
      throw new BusinessRuleError(
        `Only requested leave can be ${decision}; leave ${id} is ${row.leaveStatus ? row.leaveStatus.key : 'booked directly (no status)'}. [leave_not_requested]`,
      );
    }
    const allow = allowNegative ?? row.allowNegative;
    await w.tx.leave.update({
      where: { id },
      data: { leaveStatusId: await leaveStatusId(w, decision), allowNegative: allow, updatedAt: w.now },
    });
    if (decision === 'approved') {
      await assertBalance(w, { employeeId: row.employeeId, leaveTypeId: row.leaveTypeId, year: row.year }, allow);
    }
    await recordChange(w, leave, id, 'updated');
  });
  return getEntity(ctx, leave, id);
}
