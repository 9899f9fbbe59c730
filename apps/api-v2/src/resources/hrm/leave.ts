import type { Leave } from '@bo/domain/hrm/leave/leave.entity';
import { createLeaveInput, updateLeaveInput } from '@bo/domain/hrm/leave/leave.schema';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { employeeSimpleV2 } from './employee.js';

/** v2 names of leave that are not the snake_case of the domain's */
export const leaveNames = v2Names({ leavetype: 'leaveType' });

/**
 * hrm/leave read (reference: GetLeave) with leave_status (2025-09; null for leave booked
 * directly, which is listed too: 2025-10), and as extensions kind (granted or taken),
 * is_time_defined, description and allow_negative. `hours` are positive; taken leave subtracts them.
 */
export function leaveV2(l: Leave): Record<string, unknown> {
  return {
    id: l.id,
    employee: l.employee ? employeeSimpleV2(l.employee) : null,
    leavetype: l.leaveType
      ? {
          id: l.leaveType.id,
          label: l.leaveType.label,
          blocked: l.leaveType.blocked,
          color: l.leaveType.color,
          affects_balance: l.leaveType.affectsBalance,
        }
      : null,
    leave_status: l.leaveStatus ? { id: l.leaveStatus.id, label: l.leaveStatus.label } : null,
    kind: l.kind,
    created_at: v2DateTime(l.createdAt),
    updated_at: v2DateTime(l.updatedAt),
    start_date: v2DateTime(l.startDate),
    end_date: v2DateTime(l.endDate),
    is_time_defined: l.isTimeDefined,
    year: l.year,
    hours: l.hours,
    description: l.description,
    allow_negative: l.allowNegative,
  };
}

/** hrm/leave: GET, POST, PUT (PostLeave). */
export const leaveV2Resource = v2Resource<Leave>({
  path: 'hrm/leave',
  procedures: (c) => c.hrm.leave,
  inputs: { create: createLeaveInput, update: updateLeaveInput },
  names: leaveNames,
  read: leaveV2,
  documentAsBuilt: ['employee', 'leavetype', 'leave_status', 'start_date', 'end_date'],
  errorCodes: true,
  conformance: false,
});

/**
 * hours/leave: booking leave as hours. The reference gives it the same body as hrm/leave
 * (PostLeave); here it is the same write: a leave entry without a status, taken over the
 * period (its hours from the timetables when not given) and counted against the balance at
 * once. It is listed by hrm/leave with leave_status null.
 */
export const hoursLeaveV2 = v2Resource<Leave>({
  ...leaveV2Resource,
  path: 'hours/leave',
});
