import type { WriteContext } from '../shared/entity/index.js';
import { assertInOrder, assertOpen, assertTasksOf, completeWhenDone, loadState } from './workflow.rules.js';

/**
 * Completes one task of a workflow: refused on a finished workflow and, when the tasks
 * are sequential, before the tasks ahead of it; the last one completes the workflow.
 */
export async function completeWorkflowTask({ tx, now }: WriteContext, workflowId: string, taskId: string): Promise<void> {
  const state = await loadState(tx, workflowId);
  if (!state) return;
  assertOpen(state);
  assertTasksOf(state.tasks, [taskId], () => 'taskId');
  assertInOrder(state.sequential, state.tasks, taskId);
  await tx.workflowTask.update({ where: { id: taskId }, data: { status: 'completed', completedAt: now, updatedAt: now } });
  await completeWhenDone(tx, workflowId, now);
}
