import { employee } from '../hrm/employee/employee.entity.js';
import type { EntityUpdate } from '../shared/entity/index.js';
import { assertInOrder, assertOpen, assertTasksOf, completeWhenDone, loadState } from './workflow.rules.js';
import type { UpdateWorkflowInput } from './workflow.schema.js';

/** Renames a workflow and changes its tasks (status, assignee, due date), under the workflow rules. */
export const updateWorkflow: EntityUpdate<UpdateWorkflowInput> = {
  references: (input) =>
    (input.tasks ?? []).map((t, n) => ({ path: `tasks.${n}.assigneeId`, target: employee, id: t.assigneeId })),
  async run({ tx, now }, id, input) {
    const state = await loadState(tx, id);
    if (!state) return;
    assertOpen(state);
    const changes = input.tasks ?? [];
    assertTasksOf(
      state.tasks,
      changes.map((t) => t.id),
      (n) => `tasks.${n}.id`,
    );
    if (input.name !== undefined) await tx.workflow.update({ where: { id }, data: { name: input.name, updatedAt: now } });
    // in the tasks' own order, so that completing several sequential tasks at once is in order
    const byPosition = [...changes].sort((a, b) => {
      const pa = state.tasks.find((t) => t.id === a.id)?.position ?? 0;
      const pb = state.tasks.find((t) => t.id === b.id)?.position ?? 0;
      return pa - pb;
    });
    for (const change of byPosition) {
      const task = state.tasks.find((t) => t.id === change.id);
      if (!task) continue;
      const statusChanges = change.status !== undefined && change.status !== task.status;
      if (statusChanges && change.status === 'completed') assertInOrder(state.sequential, state.tasks, task.id);
      if (statusChanges && change.status) task.status = change.status;
      await tx.workflowTask.update({
        where: { id: task.id },
        data: {
          ...(statusChanges ? { status: change.status, completedAt: change.status === 'completed' ? now : null } : {}),
          ...(change.assigneeId !== undefined ? { assigneeEmployeeId: change.assigneeId } : {}),
          ...(change.dueDate !== undefined ? { dueDate: change.dueDate ? new Date(`${change.dueDate}T00:00:00Z`) : null } : {}),
          updatedAt: now,
        },
      });
    }
    if (changes.length) await completeWhenDone(tx, id, now);
  },
};
