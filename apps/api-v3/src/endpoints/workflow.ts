import type { Workflow } from '@bo/domain/workflows/workflow.entities';
import { z } from 'zod';
import { commandEndpoint, getEndpoint, listEndpoint, type NamedSchema } from './types.js';

const named = z.object({ id: z.string(), name: z.string() });

/** v3 shape of a workflow: what it runs on, its tasks in order, and its state. */
const WorkflowV3 = z.object({
  id: z.string(),
  name: z.string(),
  defaultWorkflow: named.nullable(),
  status: z.enum(['open', 'completed']),
  sequential: z.boolean(),
  linkedTo: z.object({
    type: z.enum(['organization', 'person', 'project', 'sale']),
    id: z.string(),
  }),
  tasks: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      position: z.number().int(),
      assignee: named.nullable(),
      dueDate: z.string().nullable(),
      status: z.enum(['open', 'completed']),
      completedAt: z.iso.datetime().nullable(),
    }),
  ),
  startedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
type WorkflowV3 = z.infer<typeof WorkflowV3>;
const workflowSchema: NamedSchema = { name: 'Workflows.Workflow', schema: WorkflowV3 };

function linkedTo(w: Workflow): WorkflowV3['linkedTo'] {
  if (w.organization) return { type: 'organization', id: w.organization.id };
  if (w.person) return { type: 'person', id: w.person.id };
  if (w.project) return { type: 'project', id: w.project.id };
  // the table's CHECK constraint holds exactly one link
  return { type: 'sale', id: w.sale?.id ?? '' };
}

export function workflowV3(w: Workflow): WorkflowV3 {
  return {
    id: w.id,
    name: w.name,
    defaultWorkflow: w.defaultWorkflow,
    status: w.status as WorkflowV3['status'],
    sequential: w.sequential,
    linkedTo: linkedTo(w),
    tasks: w.tasks.map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description,
      position: t.position,
      assignee: t.assignee,
      dueDate: t.dueDate,
      status: t.status as WorkflowV3['status'],
      completedAt: t.completedAt ? t.completedAt.toISOString() : null,
    })),
    startedAt: w.startedAt.toISOString(),
    completedAt: w.completedAt ? w.completedAt.toISOString() : null,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

const startRequest: NamedSchema = {
  name: 'Workflows.Workflow.Start',
  schema: z.object({
    defaultWorkflowId: z.string(),
    name: z.string().optional(),
    linkedTo: z.object({
      organizationId: z.string().optional(),
      personId: z.string().optional(),
      projectId: z.string().optional(),
      saleId: z.string().optional(),
    }),
    assigneeId: z.string().nullable().optional(),
    startDate: z.iso.date().optional(),
  }),
};
const emptyRequest: NamedSchema = { name: 'Workflows.Empty', schema: z.object({}) };

export const workflowEndpoints = {
  'workflow.list': listEndpoint<Workflow>({
    call: (c) => c.workflows.workflow.list,
    filters: {
      status: 'status',
      defaultWorkflowId: 'defaultWorkflow.id',
      organizationId: 'organization.id',
      personId: 'person.id',
      projectId: 'project.id',
      saleId: 'sale.id',
    },
    map: workflowV3,
    doc: { summary: 'Workflows, paged', response: workflowSchema, errors: [400, 403] },
  }),
  'workflow.get': getEndpoint<Workflow>({
    call: (c) => c.workflows.workflow.get,
    map: workflowV3,
    doc: { summary: 'One workflow with its tasks', response: workflowSchema, errors: [403, 404] },
  }),
  'workflow.start': commandEndpoint<Record<string, unknown>, { data: never }, { id: string }>({
    call: (c) => c.workflows.workflow.create,
    mapInput: (body) => ({ data: body as never }),
    map: async (r, c) => workflowV3(await c.workflows.workflow.get({ id: r.id })),
    status: 201,
    doc: {
      summary: 'Starts a workflow from a default workflow on an organization, person, project or sale',
      request: startRequest,
      response: workflowSchema,
      errors: [400, 403, 422],
    },
  }),
  'workflow.task.complete': commandEndpoint<Record<string, unknown>, { taskId: string }, Workflow>({
    call: (c) => c.workflows.workflow.completeTask,
    withId: true,
    mapInput: (_body, id) => ({ taskId: id as string }),
    map: (w) => workflowV3(w),
    status: 200,
    doc: {
      summary:
        'Completes one task (by its id); sequential tasks in order only; the last one completes the workflow, which is read-only after',
      request: emptyRequest,
      response: workflowSchema,
      errors: [403, 404, 422],
    },
  }),
};
