import { type Approval, type ApprovalStatus, approval, approvalStatus } from '@bo/domain/hours/approval/approval.entity';
import {
  approvalInput,
  approvalUpdateInput,
  periodInput,
  submissionQuery,
  submissionStatus,
} from '@bo/domain/hours/approval/approval.schema';
import { z } from 'zod';
import { employeeSimpleV2 } from '../hrm/employee.js';
import { v2Names } from '../v2-names.js';
import { v2Operation } from '../v2-operation.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names({
  approvalstatus_id: 'approvalStatusId',
  approvalstatus: 'approvalStatus',
  date: 'weekStart',
  duration_in_minutes: 'durationMinutes',
});

/** hours/approval: every transition of a week (reference: GetApproval, with duration_in_minutes of 2023-04). */
export const approvalV2Resource = v2Resource<Approval>({
  path: 'hours/approval',
  entity: approval,
  inputs: { create: approvalInput, update: approvalUpdateInput, remove: true },
  procedures: (c) => c.hours.approval,
  names,
  // a write names a day of the week by `date`
  input: (body) => {
    const { date, ...rest } = body;
    return { data: { ...(names.input(rest) as Record<string, unknown>), ...(date !== undefined ? { date } : {}) } };
  },
  read: (a) => ({
    id: a.id,
    employee: a.employee ? employeeSimpleV2(a.employee) : null,
    approvalstatus: a.approvalStatus,
    date: a.weekStart,
    status: a.status,
    duration_in_minutes: a.durationMinutes,
  }),
});

/** hours/approvalstatus: read-only (reference: GetApprovalStatus). */
export const approvalStatusV2Resource = v2Resource<ApprovalStatus>({
  path: 'hours/approvalstatus',
  entity: approvalStatus,
  procedures: (c) => c.hours.approvalstatus,
  names: v2Names(),
  readOnly: true,
  read: (s) => ({ id: s.id, label: s.label }),
});

const periodNames = v2Names({
  'q[start_date]': 'startDate',
  'q[end_date]': 'endDate',
  'q[employee_id]': 'employeeId',
});

/** hours/submission (GET: per employee and week whether it is turned in; POST: submit a period) and hours/submit. */
export const submissionV2Operations = [
  v2Operation({
    method: 'GET',
    path: 'hours/submission',
    summary: 'Per employee and ISO week of the period: submitted, yet_to_turn_in or no_hours',
    call: (c) => c.hours.approval.submissions,
    names: periodNames,
    input: submissionQuery,
    // the answer in v2 names (reference: SubmissionStatus)
    output: z.array(z.object({ employee_id: z.string(), date: z.string(), status: submissionStatus.shape.status })),
    show: (rows: z.infer<typeof submissionStatus>[]) =>
      rows.map((r) => ({ employee_id: r.employeeId, date: r.date, status: r.status })),
  }),
  v2Operation({
    method: 'POST',
    path: 'hours/submission',
    summary: 'Submits the weeks of a period of an employee for approval',
    call: (c) => c.hours.approval.submitPeriod,
    names: v2Names(),
    input: periodInput,
    output: z.object({ ids: z.array(z.string()) }),
  }),
  v2Operation({
    method: 'POST',
    path: 'hours/submit',
    summary: 'Submits the weeks of a period of an employee for approval',
    call: (c) => c.hours.approval.submitPeriod,
    names: v2Names(),
    input: periodInput,
    output: z.object({ ids: z.array(z.string()) }),
  }),
];
