import { z } from 'zod';

/** Starting a workflow from a default, on one entity. */
export const startWorkflowInput = z.object({
  defaultWorkflowId: z.string().min(1),
  /** the workflow's own name; the default's name when absent */
  name: z.string().trim().min(1).max(255).optional(),
  /** the entity it runs on: exactly one of the four */
  linkedTo: z
    .object({
      organizationId: z.string().min(1).optional(),
      personId: z.string().min(1).optional(),
      projectId: z.string().min(1).optional(),
      saleId: z.string().min(1).optional(),
    })
    .refine((l) => Object.values(l).filter((v) => v !== undefined).length === 1, {
      message: 'name exactly one entity to run on: an organization, a person, a project or a sale',
    }),
  /** who gets every task, unless a task says otherwise later */
  assigneeId: z.string().min(1).nullable().optional(),
  /** due dates count from this day (YYYY-MM-DD); today when absent */
  startDate: z.iso.date().optional(),
});
export type StartWorkflowInput = z.infer<typeof startWorkflowInput>;

export const taskChange = z.object({
  id: z.string().min(1),
  status: z.enum(['open', 'completed']).optional(),
  assigneeId: z.string().min(1).nullable().optional(),
  dueDate: z.iso.date().nullable().optional(),
});

export const updateWorkflowInput = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  tasks: z.array(taskChange).max(200).optional(),
});
export type UpdateWorkflowInput = z.infer<typeof updateWorkflowInput>;

/** the task to complete; its workflow is found from it when not named */
export const completeTaskInput = z.object({ workflowId: z.string().min(1).optional(), taskId: z.string().min(1) });
