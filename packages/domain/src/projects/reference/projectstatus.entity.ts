import type { z } from 'zod';
import { defineEntity, f } from '../../shared/entity/index.js';

/** The statuses a project moves through; a closed status freezes the project's services. */
export const projectStatus = defineEntity({
  type: 'projectstatus',
  table: 'project_status',
  module: 'projects',
  nameField: 'label',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    /** the system label (tab_pactive); `name` is the readable text (docs/fidelity.md) */
    label: f.requiredString(),
    name: f.string(),
    color: f.string(),
    isClosed: f.boolean(),
    position: f.requiredInteger(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type ProjectStatus = z.infer<typeof projectStatus.schema>;
