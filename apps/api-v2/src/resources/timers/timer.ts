import { type Timer, timer } from '@bo/domain/timers/timer.entity';
import { createTimerInput, updateTimerInput } from '@bo/domain/timers/timer.schema';
import { employeeSimpleV2 } from '../hrm/employee.js';
import { projectSimpleV2 } from '../shared/simple.js';
import { hourTypeV2 } from '../hours/hourstype.js';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names({
  projectservice_id: 'projectServiceId',
  projectservice: 'projectService',
  hourstype_id: 'hourTypeId',
  hourstype: 'hourType',
  seconds_spent: 'secondsSpent',
  related_hours: 'relatedHours',
});

/** timers/timer (reference: GetTimer); at most one runs per employee. */
export const timerV2Resource = v2Resource<Timer>({
  path: 'timers/timer',
  entity: timer,
  inputs: { create: createTimerInput, update: updateTimerInput, remove: true },
  procedures: (c) => c.timers.timer,
  names,
  read: (x) => ({
    id: x.id,
    seconds_spent: x.secondsSpent,
    min_seconds_step: null,
    employee: x.employee ? employeeSimpleV2(x.employee) : null,
    project: projectSimpleV2(x.project),
    projectservice: x.projectService
      ? {
          id: x.projectService.id,
          name: x.projectService.name,
          default_service_id: x.projectService.defaultServiceId ?? null,
          revenue_group_id: x.projectService.revenueGroupId ?? null,
          use_in_resource_planner: null,
        }
      : null,
    hourstype: x.hourType ? hourTypeV2(x.hourType) : null,
    related_hours: x.relatedHours
      ? {
          id: x.relatedHours.id,
          hours: Math.round((x.relatedHours.durationMinutes / 60) * 10_000) / 10_000,
          duration_in_minutes: x.relatedHours.durationMinutes,
          start_date: x.relatedHours.startDate,
          end_date: x.relatedHours.startDate,
          is_time_defined: false,
          is_recurring: false,
          recurrence: null,
          is_external: false,
          billable: x.relatedHours.billable,
          note: x.relatedHours.description,
          address: null,
          assignment_id: null,
          should_sync_to_cronofy: false,
          source: x.relatedHours.source,
        }
      : null,
    created_at: v2DateTime(x.createdAt),
    updated_at: v2DateTime(x.updatedAt),
    state: x.state,
    metadata: x.metadata,
  }),
});
