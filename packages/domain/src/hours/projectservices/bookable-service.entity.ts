import type { z } from 'zod';
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
  createdAt: f.createdAt(),
  updatedAt: f.updatedAt(),
};

const byName = [
  { path: 'name', dir: 'asc' as const },
  { path: 'id', dir: 'asc' as const },
];

/** Project services hours can be booked on: tracking hours, not invoiced (hours/projectservices). */
export const hoursBookableService = defineEntity({
  type: 'projectservice',
  table: 'project_service',
  module: 'hours',
  defaultSort: byName,
  scope: () => ({
    and: [
      { path: 'trackHours', op: 'eq', value: 'true' },
      { path: 'status', op: 'eq', value: 'open' },
    ],
  }),
  fields,
});

/** Project services costs can be booked on: tracking costs, not invoiced (costs/projectservices). */
export const costsBookableService = defineEntity({
  type: 'projectservice',
  table: 'project_service',
  module: 'hours',
  defaultSort: byName,
  scope: () => ({
    and: [
      { path: 'trackCost', op: 'eq', value: 'true' },
      { path: 'status', op: 'eq', value: 'open' },
    ],
  }),
  fields,
});
export type BookableService = z.infer<typeof hoursBookableService.schema>;
