import { z } from 'zod';
import { defineEntity, f } from '../../shared/entity/index.js';

/** A saved filter of the project list. */
export const projectFilter = defineEntity({
  type: 'projectfilter',
  table: 'project_filter',
  module: 'projects',
  fields: {
    id: f.id(),
    name: f.requiredString(),
    key: f.requiredString(),
    values: f.json(z.unknown()),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type ProjectFilter = z.infer<typeof projectFilter.schema>;
