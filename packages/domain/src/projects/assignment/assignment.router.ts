import { z } from 'zod';
import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../../shared/entity/index.js';
import { moduleProcedure, router } from '../../trpc.js';
import { assignmentBudgetInput, assignmentBudgetRow, readAssignmentBudgets } from './assignment-budget.js';
import { assignment } from './assignment.entity.js';
import { createAssignmentInput, updateAssignmentInput } from './assignment.schema.js';
import { createAssignment, updateAssignment } from './assignment.write.js';

/** Assignments: create answers the id only; an update cannot move the period. */
export const assignmentRouter = router({
  ...entityQueries(assignment),
  create: entityCreate(assignment, createAssignmentInput, createAssignment),
  update: entityUpdate(assignment, updateAssignmentInput, updateAssignment),
  delete: entityDelete(assignment),
  /** planned against spent per assignment, for a week (v2 projects/assignmentbudget) */
  budgets: moduleProcedure('projects', 'read')
    .input(assignmentBudgetInput)
    .output(z.object({ items: z.array(assignmentBudgetRow), count: z.number().int() }))
    .query(({ ctx, input }) => readAssignmentBudgets(ctx, input)),
});
