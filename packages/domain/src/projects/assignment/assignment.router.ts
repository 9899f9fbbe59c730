import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../../shared/entity/index.js';
import { router } from '../../trpc.js';
import { assignment } from './assignment.entity.js';
import { createAssignmentInput, updateAssignmentInput } from './assignment.schema.js';
import { createAssignment, updateAssignment } from './assignment.write.js';

/** Assignments: create answers the id only; an update cannot move the period. */
export const assignmentRouter = router({
  ...entityQueries(assignment),
  create: entityCreate(assignment, createAssignmentInput, createAssignment),
  update: entityUpdate(assignment, updateAssignmentInput, updateAssignment),
  delete: entityDelete(assignment),
});
