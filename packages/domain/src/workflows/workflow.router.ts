import { entityCreate, entityDelete, entityQueries, entityUpdate, getEntity, updateEntity } from '../shared/entity/index.js';
import { moduleProcedure, router } from '../trpc.js';
import { completeWorkflowTask } from './complete-workflow-task.js';
import { startWorkflow } from './start-workflow.js';
import { updateWorkflow } from './update-workflow.js';
import {
  defaultAction,
  defaultTask,
  defaultWorkflow,
  defaultWorkflowGroup,
  workflow,
  workflowTask,
} from './workflow.entities.js';
import { completeTaskInput, startWorkflowInput, updateWorkflowInput } from './workflow.schema.js';

/** Workflows: started from a default on an entity, tasks completed under the workflow rules. */
export const workflowsRouter = router({
  workflow: router({
    ...entityQueries(workflow),
    create: entityCreate(workflow, startWorkflowInput, startWorkflow),
    update: entityUpdate(workflow, updateWorkflowInput, updateWorkflow),
    delete: entityDelete(workflow),
    /** completes one task; answers the workflow as it is after */
    completeTask: moduleProcedure('workflows', 'write')
      .input(completeTaskInput)
      .output(workflow.schema)
      .mutation(async ({ ctx, input }) => {
        const workflowId = input.workflowId ?? (await getEntity(ctx, workflowTask, input.taskId)).workflowId;
        await updateEntity(ctx, workflow, { run: (w, id) => completeWorkflowTask(w, id, input.taskId) }, workflowId, {});
        return getEntity(ctx, workflow, workflowId);
      }),
  }),
  // the defaults are seeded per environment and read-only
  defaultworkflow: router(entityQueries(defaultWorkflow)),
  defaultworkflowgroup: router(entityQueries(defaultWorkflowGroup)),
  defaultaction: router(entityQueries(defaultAction)),
  defaulttask: router(entityQueries(defaultTask)),
});
