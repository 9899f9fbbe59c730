import { type ProjectFilter, projectFilter } from '@bo/domain/projects/reference/projectfilter.entity';
import {
  type AssignmentStatus,
  assignmentStatus,
  createAssignmentStatusInput,
  updateAssignmentStatusInput,
} from '@bo/domain/projects/reference/assignmentstatus.entity';
import { type ProjectStatus, projectStatus } from '@bo/domain/projects/reference/projectstatus.entity';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

/** projects/projectstatus (read-only; reference: ProjectStatus, plus is_closed). */
export const projectStatusV2 = v2Resource<ProjectStatus>({
  path: 'projects/projectstatus',
  entity: projectStatus,
  procedures: (c) => c.projects.projectstatus,
  names: v2Names(),
  read: (s) => ({
    id: s.id,
    label: s.label,
    color: s.color,
    is_closed: s.isClosed,
    created_at: v2DateTime(s.createdAt),
    updated_at: v2DateTime(s.updatedAt),
  }),
});

/** projects/projectfilters (read-only; reference: Filter). */
export const projectFilterV2 = v2Resource<ProjectFilter>({
  path: 'projects/projectfilters',
  entity: projectFilter,
  procedures: (c) => c.projects.projectfilters,
  names: v2Names(),
  read: (f) => ({ id: f.id, name: f.name, key: f.key, values: f.values }),
});

/** reference GetAssignmentStatus: `order` is the status's place in the list */
export function assignmentStatusV2(s: Omit<AssignmentStatus, 'createdAt' | 'updatedAt'> & Partial<AssignmentStatus>) {
  return {
    id: s.id,
    name: s.name,
    color: s.color,
    is_done: s.isDone,
    is_blocked: s.isBlocked,
    order: s.position,
    created_at: s.createdAt ? v2DateTime(s.createdAt) : null,
    updated_at: s.updatedAt ? v2DateTime(s.updatedAt) : null,
  };
}

const statusNames = v2Names({ order: 'position' });

/** projects/assignmentstatus: GET, POST and PUT (reference AssignmentStatus); statuses are not deleted, they are blocked. */
export const assignmentStatusResourceV2 = v2Resource<AssignmentStatus>({
  path: 'projects/assignmentstatus',
  entity: assignmentStatus,
  inputs: { create: createAssignmentStatusInput, update: updateAssignmentStatusInput },
  procedures: (c) => c.projects.assignmentstatus,
  names: statusNames,
  methods: { delete: false },
  read: assignmentStatusV2,
});
