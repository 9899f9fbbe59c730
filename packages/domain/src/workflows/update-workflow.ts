import { employee } from '../hrm/employee/employee.entity.js';
import type { EntityUpdate } from '../shared/entity/index.js';
import { BusinessRuleError } from '../shared/errors.js';
import { assertInOrder, assertOpen, assertTasksOf, completeWhenDone, loadState } from './workflow.rules.js';
import type { UpdateWorkflowInput } from './workflow.schema.js';

/** Renames a workflow and changes its tasks (status, assignee, due date), under the workflow rules. */
export const updateWorkflow: EntityUpdate<UpdateWorkflowInput> = {
  references: (input) =>
    (input.tasks ?? []).map((t, n) => ({ path: `tasks.${n}.assigneeId`, target: employee, id: t.assigneeId })),
  async run({ sql, now }, id, input) {
    const state = await loadState(sql, id);
    if (!state) return;
    assertOpen(state);
    const changes = input.tasks ?? [];
    assertTasksOf(
      state.tasks,
      changes.map((t) => t.id),
      (n) => `tasks.${n}.id`,
    );
    if (input.name !== undefined) await sql.update('workflow', id, { name: input.name, updated_at: now });
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
      // queued: the rules were checked on the state read above, nothing waits for these
      await sql.update('workflow_task', task.id, {
        ...(statusChanges ? { status: change.status, completed_at: change.status === 'completed' ? now : null } : {}),
        ...(change.assigneeId !== undefined ? { assignee_employee_id: change.assigneeId } : {}),
        // a date column takes the day as it is written (a Date would be sent in the process's time zone)
        ...(change.dueDate !== undefined ? { due_date: change.dueDate } : {}),
        updated_at: now,
      });
    }
    // reopening an earlier task of a sequential workflow while a later one stays completed would leave
    // the tasks out of order: refused (the whole change is rolled back); reopen the later ones with it
    if (state.sequential) {
      const ordered = [...state.tasks].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
      const firstOpen = ordered.findIndex((t) => t.status !== 'completed');
      const after = firstOpen >= 0 ? ordered.slice(firstOpen + 1).find((t) => t.status === 'completed') : undefined;
      if (after) {
        throw new BusinessRuleError(
          `the tasks of this workflow are sequential: task ${after.id} is completed, so task ${ordered[firstOpen]?.id} before it cannot be open; reopen the later tasks with it`,
        );
      }
    }
    if (changes.length) await completeWhenDone(sql, id, now);
  },
};
