import { z } from 'zod';
import { entityCreate, entityQueries, entityUpdate } from '../../shared/entity/index.js';
import { moduleProcedure, router } from '../../trpc.js';
import { LEAVE_BALANCE_SORT_KEYS, leaveBalanceRow, readLeaveBalances } from './leave-balance.js';
import { decideLeave, requestLeaveCommand } from './leave-commands.js';
import { leave } from './leave.entity.js';
import { createLeaveInput, decideLeaveInput, requestLeaveInput, updateLeaveInput } from './leave.schema.js';
import { createLeave, updateLeave } from './leave.write.js';

export const leaveBalanceQueryInput = z.object({
  employeeIds: z.array(z.string().min(1)).max(1000).optional(),
  leaveTypeId: z.string().min(1).optional(),
  year: z.number().int().min(1900).max(2200).optional(),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(100).default(100),
  /** false: the page only; the count walks every key of the collection */
  count: z.boolean().default(true),
  sort: z
    .array(z.object({ key: z.enum(LEAVE_BALANCE_SORT_KEYS), dir: z.enum(['asc', 'desc']) }))
    .max(3)
    .optional(),
});

/** Leave entries (hrm/leave, hours/leave), the request flow, and balances. */
export const leaveRouter = router({
  ...entityQueries(leave),
  create: entityCreate(leave, createLeaveInput, createLeave),
  update: entityUpdate(leave, updateLeaveInput, updateLeave),
  request: moduleProcedure('hrm', 'write')
    .input(requestLeaveInput)
    .output(leave.schema)
    .mutation(({ ctx, input }) => requestLeaveCommand(ctx, input)),
  approve: moduleProcedure('hrm', 'write')
    .input(decideLeaveInput)
    .output(leave.schema)
    .mutation(({ ctx, input }) => decideLeave(ctx, input.id, 'approved', input.allowNegative)),
  reject: moduleProcedure('hrm', 'write')
    .input(decideLeaveInput)
    .output(leave.schema)
    .mutation(({ ctx, input }) => decideLeave(ctx, input.id, 'rejected')),
  balances: moduleProcedure('hrm', 'read')
    .input(leaveBalanceQueryInput)
    .output(z.object({ items: z.array(leaveBalanceRow), count: z.number().int().nullable() }))
    .query(({ ctx, input }) => readLeaveBalances(ctx.sql, input, ctx.clock.now().getUTCFullYear())),
});
