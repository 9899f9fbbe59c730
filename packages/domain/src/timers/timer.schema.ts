import { z } from 'zod';
import { dateInput } from '../shared/numbers.js';
import { TIMER_STATES } from './timer.entity.js';

export const createTimerInput = z.object({
  employeeId: z.string().min(1),
  projectId: z.string().min(1).optional(),
  projectServiceId: z.string().min(1),
  hourTypeId: z.string().min(1),
  state: z.enum(TIMER_STATES).optional(),
  metadata: z.string().max(10_000).nullable().optional(),
});
export type CreateTimerInput = z.infer<typeof createTimerInput>;

export const updateTimerInput = z.object({
  state: z.enum(TIMER_STATES).optional(),
  metadata: z.string().max(10_000).nullable().optional(),
});
export type UpdateTimerInput = z.infer<typeof updateTimerInput>;

/** Stopping a timer: whether to book its duration as hours (on the day given, today when absent). */
export const stopTimerInput = z.object({
  book: z.boolean().default(true),
  date: dateInput.optional(),
  description: z.string().max(10_000).nullable().optional(),
});
export type StopTimerInput = z.infer<typeof stopTimerInput>;
