import type { SqlWriteContext } from '../shared/entity/index.js';
import { assertInOrder, assertOpen, assertTasksOf, completeWhenDone, loadState } from './workflow.rules.js';

/**
 * Completes one task of a workflow: refused on a finished workflow and, when the tasks
 * are sequential, before the tasks ahead of it; the last one completes the workflow.
 * The caller holds the workflow's row lock (the lock its edits and deletion take too),
 * and the state is read after it: a task completed already stays completed as it was
 * (its completion time is the first one's), however many completions meet.
 */
export async function completeWorkflowTask({ sql, now }: SqlWriteContext, workflowId: string, taskId: string): Promise<void> {
  const state = await loadState(sql, workflowId);
  if (!state) return;
  assertOpen(state);
  assertTasksOf(state.tasks, [taskId], () => 'taskId');
  if (state.tasks.find((t) => t.id === taskId)?.status === 'completed') return;
  assertInOrder(state.sequential, state.tasks, taskId);
  await sql.queue(
    `UPDATE workflow_task SET status = 'completed', completed_at = $3, updated_at = $3
      WHERE environment_id = $1 AND id = $2`,
    [taskId, now],
  );
  await completeWhenDone(sql, workflowId, now);
}
