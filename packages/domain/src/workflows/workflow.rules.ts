import { BusinessRuleError, ValidationError } from '../shared/errors.js';
import type { EntityTransaction } from '../shared/entity/index.js';

export interface TaskState {
  id: string;
  position: number;
  status: string;
}

/** A finished workflow is read-only. */
export function assertOpen(workflow: { id: string; status: string }): void {
  if (workflow.status === 'completed') {
    throw new BusinessRuleError(`workflow ${workflow.id} is completed and can no longer be changed`);
  }
}

/**
 * When the default says tasks are sequential, a task can be completed only when every
 * task before it is: completing out of order is refused, naming the task still open.
 */
export function assertInOrder(sequential: boolean, tasks: TaskState[], completing: string): void {
  if (!sequential) return;
  const task = tasks.find((t) => t.id === completing);
  if (!task) return;
  const before = tasks
    .filter((t) => t.position < task.position || (t.position === task.position && t.id < task.id))
    .find((t) => t.status !== 'completed');
  if (before) {
    throw new BusinessRuleError(`the tasks of this workflow are sequential: complete task ${before.id} before ${completing}`);
  }
}

/** Every named task must be a task of this workflow. */
export function assertTasksOf(tasks: TaskState[], ids: string[], path: (n: number) => string): void {
  const own = new Set(tasks.map((t) => t.id));
  const violations = ids.flatMap((id, n) =>
    own.has(id) ? [] : [{ path: path(n), message: `${id} is not a task of this workflow`, code: 'not_found' }],
  );
  if (violations.length) throw new ValidationError(violations);
}

/** Completing the last open task completes the workflow. */
export async function completeWhenDone(tx: EntityTransaction, workflowId: string, now: Date): Promise<void> {
  const open = await tx.workflowTask.count({ where: { workflowId, status: { not: 'completed' } } });
  if (open === 0) {
    await tx.workflow.update({ where: { id: workflowId }, data: { status: 'completed', completedAt: now, updatedAt: now } });
  }
}

/** The workflow's tasks in order, and the workflow itself, for the rules above. */
export async function loadState(tx: EntityTransaction, workflowId: string) {
  const wf = await tx.workflow.findFirst({
    where: { id: workflowId },
    select: { id: true, status: true, sequential: true, tasks: { select: { id: true, position: true, status: true } } },
  });
  return wf;
}
