import type { TenantReader } from '@bo/db';
import { BusinessRuleError, ValidationError } from '../shared/errors.js';

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

/**
 * Completing the last open task completes the workflow: one statement queued after the tasks'
 * own updates (it sees them), no count read into the process.
 */
export async function completeWhenDone(sql: TenantReader, workflowId: string, now: Date): Promise<void> {
  await sql.queue(
    `UPDATE workflow SET status = 'completed', completed_at = $3, updated_at = $3
      WHERE environment_id = $1 AND id = $2
        AND NOT EXISTS (SELECT 1 FROM workflow_task t
                         WHERE t.environment_id = $1 AND t.workflow_id = $2 AND t.status <> 'completed')`,
    [workflowId, now],
  );
}

export interface WorkflowState {
  id: string;
  status: string;
  sequential: boolean;
  tasks: TaskState[];
}

/** The workflow and its tasks, for the rules above: one read (the caller holds the workflow's row lock). */
export async function loadState(sql: TenantReader, workflowId: string): Promise<WorkflowState | undefined> {
  const [state] = await sql.read<WorkflowState>(
    `SELECT w.id, w.status, w.sequential,
            COALESCE((SELECT json_agg(json_build_object('id', t.id, 'position', t.position, 'status', t.status))
                        FROM workflow_task t WHERE t.environment_id = $1 AND t.workflow_id = w.id), '[]'::json) AS tasks
       FROM workflow w WHERE w.environment_id = $1 AND w.id = $2`,
    [workflowId],
  );
  return state;
}
