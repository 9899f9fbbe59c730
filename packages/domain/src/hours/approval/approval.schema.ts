import { z } from 'zod';
import { dateInput } from '../../shared/numbers.js';

/** A week is named by any of its days. */
export const weekInput = z.object({ employeeId: z.string().min(1), date: dateInput });
export type WeekInput = z.infer<typeof weekInput>;

/** Approve, reject or reopen a week: the status by its id (hours/approvalstatus) or its key. */
export const approvalInput = z.object({
  employeeId: z.string().min(1),
  date: dateInput,
  approvalStatusId: z.string().min(1).optional(),
  status: z.enum(['open', 'approved', 'rejected', 'submitted']).optional(),
});
export type ApprovalInput = z.infer<typeof approvalInput>;

/** A new state for the week of an existing transition. */
export const approvalUpdateInput = z.object({
  approvalStatusId: z.string().min(1).optional(),
  status: z.enum(['open', 'approved', 'rejected', 'submitted']).optional(),
});
export type ApprovalUpdateInput = z.infer<typeof approvalUpdateInput>;

/** A period of weeks to submit, or to ask the submission state of. */
export const periodInput = z.object({
  employeeId: z.string().min(1),
  startDate: dateInput,
  endDate: dateInput.optional(),
});
export type PeriodInput = z.infer<typeof periodInput>;

export const submissionQuery = z.object({
  employeeId: z.string().min(1).optional(),
  startDate: dateInput,
  endDate: dateInput,
});
export type SubmissionQuery = z.infer<typeof submissionQuery>;

export const submissionStatus = z.object({
  employeeId: z.string(),
  date: z.string(),
  status: z.enum(['submitted', 'yet_to_turn_in', 'no_hours']),
});
