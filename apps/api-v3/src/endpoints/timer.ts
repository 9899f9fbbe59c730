import type { Timer } from '@bo/domain/timers/timer.entity';
import { z } from 'zod';
import { commandEndpoint, type NamedSchema } from './types.js';

const TimerV3 = z.object({
  id: z.string(),
  employeeId: z.string().nullable(),
  projectServiceId: z.string().nullable(),
  hourTypeId: z.string().nullable(),
  state: z.enum(['running', 'paused', 'finished']),
  secondsSpent: z.number().int(),
  metadata: z.string().nullable(),
  relatedHoursId: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const schema: NamedSchema = { name: 'Timers.Timer', schema: TimerV3 };

export function timerV3(t: Timer): z.infer<typeof TimerV3> {
  return {
    id: t.id,
    employeeId: t.employee?.id ?? null,
    projectServiceId: t.projectService?.id ?? null,
    hourTypeId: t.hourType?.id ?? null,
    state: t.state as z.infer<typeof TimerV3>['state'],
    secondsSpent: t.secondsSpent,
    metadata: t.metadata,
    relatedHoursId: t.relatedHours?.id ?? null,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

const startRequest: NamedSchema = {
  name: 'Timers.Timer.Start',
  schema: z.strictObject({
    employeeId: z.string(),
    projectServiceId: z.string(),
    hourTypeId: z.string(),
    metadata: z.string().nullable().optional(),
  }),
};
const stopRequest: NamedSchema = {
  name: 'Timers.Timer.Stop',
  schema: z.strictObject({
    book: z.boolean().optional(),
    date: z.string().optional(),
    description: z.string().nullable().optional(),
  }),
};

export const timerEndpoints = {
  'timer.start': commandEndpoint<Record<string, unknown>, { data: never }, Timer>({
    call: (c) => c.timers.timer.start,
    mapInput: (body) => ({ data: body as never }),
    map: timerV3,
    status: 201,
    doc: {
      summary: 'Starts a timer; an employee has at most one running',
      request: startRequest,
      response: schema,
      errors: [400, 403, 422],
    },
  }),
  'timer.stop': commandEndpoint<Record<string, unknown>, { id: string; data: never }, Timer>({
    call: (c) => c.timers.timer.stop,
    withId: true,
    mapInput: (body, id) => ({ id: id as string, data: body as never }),
    map: timerV3,
    status: 200,
    doc: {
      summary: 'Stops a timer; with book (the default) its duration becomes hours on the timer’s service',
      request: stopRequest,
      response: schema,
      errors: [400, 403, 404, 422],
    },
  }),
};
