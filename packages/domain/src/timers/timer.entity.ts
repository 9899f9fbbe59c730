import { z } from 'zod';
import { hours } from '../hours/hours/hours.entity.js';
import { hoursServiceShape } from '../hours/hours/hours.entity.js';
import { hourType, hourTypeShape } from '../hours/hourstype/hourstype.entity.js';
import { employee } from '../hrm/employee/employee.entity.js';
import { project } from '../projects/project/project.entity.js';
import { projectReference } from '../projects/project/project.shapes.js';
import { projectService } from '../projects/service/project-service.entity.js';
import { defineEntity, f, type TargetEntity } from '../shared/entity/index.js';

export const TIMER_STATES = ['running', 'paused', 'finished'] as const;
export type TimerState = (typeof TIMER_STATES)[number];

/** A stopwatch of an employee on a service and hour type; at most one runs per employee. */
export const timer = defineEntity({
  type: 'timer',
  table: 'timer',
  module: 'hours',
  fields: {
    id: f.id(),
    employee: f.ref(
      (): TargetEntity => employee,
      z.object({ id: z.string(), personId: z.string().nullable(), name: z.string() }),
      { column: 'employee_id', restricted: true },
    ),
    project: f.ref((): TargetEntity => project, projectReference, { column: 'project_id', restricted: true }),
    projectService: f.ref((): TargetEntity => projectService, hoursServiceShape, {
      column: 'project_service_id',
      restricted: true,
    }),
    hourType: f.ref((): TargetEntity => hourType, hourTypeShape, { column: 'hour_type_id' }),
    state: f.requiredString(),
    /** seconds counted so far, the current run included */
    secondsSpent: f.computed(
      'integer',
      z.number().int(),
      (a) =>
        `${a}.seconds_before + CASE WHEN ${a}.state = 'running' AND ${a}.running_since IS NOT NULL
           THEN GREATEST(0, floor(extract(epoch FROM clock_timestamp() - ${a}.running_since)))::int ELSE 0 END`,
    ),
    runningSince: f.datetime({ filter: false, sort: false, writable: false }),
    metadata: f.string(),
    relatedHours: f.ref(
      (): TargetEntity => hours,
      z.object({
        id: z.string(),
        durationMinutes: z.number().int(),
        startDate: z.string().nullable(),
        billable: z.boolean(),
        description: z.string().nullable(),
        source: z.string().nullable(),
      }),
      { column: 'related_hours_id', writable: false },
    ),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Timer = z.infer<typeof timer.schema>;
