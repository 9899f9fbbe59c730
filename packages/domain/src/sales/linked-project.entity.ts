import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../shared/entity/index.js';

/**
 * Projects as a sale shows them. The projects area owns the project tables; these
 * declarations read the few columns a sale's `linkedProjects` embeds.
 */
export const projectStatusOfSale = defineEntity({
  type: 'projectstatus',
  table: 'project_status',
  module: 'projects',
  nameField: 'label',
  fields: { id: f.id(), label: f.requiredString(), color: f.string() },
});

export const projectOfSale = defineEntity({
  type: 'project',
  table: 'project',
  module: 'projects',
  nameField: 'name',
  fields: {
    id: f.id(),
    name: f.requiredString(),
    projectNumber: f.string(),
    /** acquisition, execution, …: a project in acquisition waits for the sale's approval */
    phase: f.requiredString(),
    projectStatus: f.ref(
      (): TargetEntity => projectStatusOfSale,
      z.object({ id: z.string(), label: z.string(), color: z.string().nullable() }),
      { column: 'project_status_id' },
    ),
    hasServices: f.computed(
      'boolean',
      z.boolean(),
      (t) => `EXISTS (SELECT 1 FROM project_service s WHERE s.environment_id = ${t}.environment_id AND s.project_id = ${t}.id)`,
    ),
    hasAcquisitionService: f.computed(
      'boolean',
      z.boolean(),
      (t) =>
        `EXISTS (SELECT 1 FROM project_service s WHERE s.environment_id = ${t}.environment_id AND s.project_id = ${t}.id AND s.kind = 'acquisition')`,
    ),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export const linkedProjectShape = z.object({
  id: z.string(),
  name: z.string(),
  projectNumber: z.string().nullable(),
  phase: z.string(),
  projectStatus: z.object({ id: z.string(), label: z.string(), color: z.string().nullable() }).nullable(),
  hasServices: z.boolean(),
  hasAcquisitionService: z.boolean(),
  createdAt: z.date(),
});

/** A sale's link to a project: its `id` is the project's id (`linkedProjects.id` filters by project). */
export const saleProject = defineEntity({
  type: 'saleproject',
  table: 'sale_project',
  module: 'sales',
  // embedded in a sale, never listed on its own: no index serves an order by its link's creation
  indexedOrder: false,
  fields: {
    id: f.id({ column: 'project_id' }),
    createdAt: f.createdAt(),
    project: f.ref((): TargetEntity => projectOfSale, linkedProjectShape, { column: 'project_id' }),
  },
});

/** Links to projects deleted since are not shown: project_id has no foreign key. */
export const projectExists = (link: string) =>
  `EXISTS (SELECT 1 FROM project p WHERE p.id = ${link}.project_id AND p.environment_id = ${link}.environment_id)`;

/** in the order the links were given, then by project */
export const linkedProjectOrder = (link: string) =>
  `${link}.created_at, (SELECT p.created_at FROM project p WHERE p.id = ${link}.project_id AND p.environment_id = ${link}.environment_id), ${link}.project_id`;
