import { z } from 'zod';
import { project } from '../../projects/project/project.entity.js';
import { projectReference } from '../../projects/project/project.shapes.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';

const fields = {
  id: f.id(),
  name: f.requiredString(),
  project: f.ref((): TargetEntity => project, projectReference, { column: 'project_id', restricted: true }),
  trackHours: f.boolean(),
  trackCost: f.boolean(),
  status: f.requiredString(),
  startDate: f.date(),
  endDate: f.date(),
  writeHoursStartDate: f.date(),
  writeHoursEndDate: f.date(),
  /** the service's project has a closed status: nothing is booked on it (read as a flag, under the hours right) */
  projectClosed: f.computed(
    'boolean',
    z.boolean(),
    (t) =>
      `EXISTS (SELECT 1 FROM project p JOIN project_status s ON s.id = p.project_status_id
                WHERE p.id = ${t}.project_id AND p.environment_id = ${t}.environment_id AND s.is_closed)`,
    { filter: true },
  ),
  createdAt: f.createdAt(),
  updatedAt: f.updatedAt(),
};

const byName = [
  { path: 'name', dir: 'asc' as const },
  { path: 'id', dir: 'asc' as const },
];

/** Project services hours can be booked on: tracking hours, not invoiced, on a project that is not closed (hours/projectservices). */
export const hoursBookableService = defineEntity({
  type: 'projectservice',
  table: 'project_service',
  module: 'hours',
  defaultSort: byName,
  scope: () => ({
    and: [
      { path: 'trackHours', op: 'eq', value: 'true' },
      { path: 'status', op: 'eq', value: 'open' },
      { path: 'projectClosed', op: 'eq', value: 'false' },
    ],
  }),
  fields,
});

/** Project services costs can be booked on: tracking costs, not invoiced, on a project that is not closed (costs/projectservices). */
export const costsBookableService = defineEntity({
  type: 'projectservice',
  table: 'project_service',
  module: 'hours',
  defaultSort: byName,
  scope: () => ({
    and: [
      { path: 'trackCost', op: 'eq', value: 'true' },
      { path: 'status', op: 'eq', value: 'open' },
      { path: 'projectClosed', op: 'eq', value: 'false' },
    ],
  }),
  fields,
});
export type BookableService = z.infer<typeof hoursBookableService.schema>;
