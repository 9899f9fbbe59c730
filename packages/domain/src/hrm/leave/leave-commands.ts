import { createEntity, type EntityCreate, getEntity, inSqlWrite, recordChange } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { UserContext } from '../../trpc.js';
import { leave } from './leave.entity.js';
import type { RequestLeaveInput } from './leave.schema.js';
import {
  assertBalance,
  holdEmployees,
  leaveColumns,
  leaveReferences,
  leaveStatusId,
  leaveValues,
  storedLeave,
} from './leave.write.js';

/** leave.request: leave taken over a period, with status requested; refused when approving it would overdraw the balance. */
export const requestLeave: EntityCreate<RequestLeaveInput> = {
  references: leaveReferences,
  async run(w, i) {
    await holdEmployees(w, [i.employeeId]);
    const v = await leaveValues(w, i.employeeId, i);
    const id = newEntityId('leave');
    await w.sql.insert('leave', {
      id,
      employee_id: i.employeeId,
      leave_type_id: i.leaveTypeId,
      leave_status_id: await leaveStatusId(w, 'requested'),
      ...leaveColumns(v),
      description: i.description ?? null,
      allow_negative: i.allowNegative ?? false,
      updated_at: w.now,
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
  await inSqlWrite(ctx, async (w) => {
    // the entry, then its employee: the order every leave update takes its locks in
    if (!(await w.sql.lockForUpdate('leave', id))) throw new NotFoundError('leave', id);
    const row = await storedLeave(w, id);
    await holdEmployees(w, [row.employeeId]);
    if (row.statusKey !== 'requested') {
      throw new BusinessRuleError(
        `Only requested leave can be ${decision}; leave ${id} is ${row.statusKey ?? 'booked directly (no status)'}. [leave_not_requested]`,
      );
    }
    const allow = allowNegative ?? row.allowNegative;
    await w.sql.update('leave', id, {
      leave_status_id: await leaveStatusId(w, decision),
      allow_negative: allow,
      updated_at: w.now,
    });
    if (decision === 'approved') {
      await assertBalance(w, { employeeId: row.employeeId, leaveTypeId: row.leaveTypeId, year: row.year }, allow);
    }
    await recordChange(w, leave, id, 'updated', false);
  });
  return getEntity(ctx, leave, id);
}
