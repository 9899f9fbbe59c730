import { z } from 'zod';
import { organization } from '../crm/organization/organization.entity.js';
import { person } from '../crm/person/person.entity.js';
import { employee } from '../hrm/employee/employee.entity.js';
import { defineEntity, f, type TargetEntity } from '../shared/entity/index.js';

/** Default workflows and their groups, actions and tasks: seeded per environment, read-only over the API. */
export const defaultWorkflowGroup = defineEntity({
  type: 'defaultworkflowgroup',
  table: 'default_workflow_group',
  module: 'workflows',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    name: f.requiredString(),
    position: f.requiredInteger(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

const step = z.object({ id: z.string(), name: z.string(), position: z.number() });
const taskTemplate = step.extend({ description: z.string().nullable(), dueInDays: z.number().nullable() });

export const defaultAction = defineEntity({
  type: 'defaultaction',
  table: 'default_action',
  module: 'workflows',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    defaultWorkflow: f.ref((): TargetEntity => defaultWorkflow, z.object({ id: z.string(), name: z.string() }), {
      column: 'default_workflow_id',
    }),
    name: f.requiredString(),
    position: f.requiredInteger(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export const defaultTask = defineEntity({
  type: 'defaulttask',
  table: 'default_task',
  module: 'workflows',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    defaultWorkflow: f.ref((): TargetEntity => defaultWorkflow, z.object({ id: z.string(), name: z.string() }), {
      column: 'default_workflow_id',
    }),
    name: f.requiredString(),
    description: f.string(),
    position: f.requiredInteger(),
    dueInDays: f.integer(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export const defaultWorkflow = defineEntity({
  type: 'defaultworkflow',
  table: 'default_workflow',
  module: 'workflows',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: {
    id: f.id(),
    group: f.ref(() => defaultWorkflowGroup, z.object({ id: z.string(), name: z.string() }), { column: 'group_id' }),
    name: f.requiredString(),
    description: f.string(),
    /** organization, person, project or sale */
    appliesTo: f.requiredString(),
    sequential: f.boolean(),
    actions: f.many((): TargetEntity => defaultAction, step, {
      remote: 'default_workflow_id',
      orderBy: (a) => `${a}.position, ${a}.id`,
    }),
    tasks: f.many((): TargetEntity => defaultTask, taskTemplate, {
      remote: 'default_workflow_id',
      orderBy: (a) => `${a}.position, ${a}.id`,
    }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export const workflowTask = defineEntity({
  type: 'workflowtask',
  table: 'workflow_task',
  module: 'workflows',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    workflowId: f.requiredString({ writable: false }),
    name: f.requiredString(),
    description: f.string(),
    position: f.requiredInteger(),
    /** an employee: others see only id and name without the hrm right, which is all this shows */
    assignee: f.ref(() => employee, z.object({ id: z.string(), name: z.string() }), {
      column: 'assignee_employee_id',
      restricted: true,
    }),
    dueDate: f.date(),
    /** open or completed */
    status: f.requiredString(),
    completedAt: f.datetime({ writable: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

const named = z.object({ id: z.string(), name: z.string() });
const task = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  position: z.number(),
  assignee: named.nullable(),
  dueDate: z.string().nullable(),
  status: z.string(),
  completedAt: z.date().nullable(),
});

/** Projects and sales are declared by their own areas; a workflow needs their id and name only. */
export const projectTarget = defineEntity({
  type: 'project',
  table: 'project',
  module: 'projects',
  fields: { id: f.id(), name: f.requiredString(), createdAt: f.createdAt(), updatedAt: f.updatedAt() },
});
export const saleTarget = defineEntity({
  type: 'sale',
  table: 'sale',
  module: 'sales',
  nameField: 'subject',
  fields: { id: f.id(), subject: f.requiredString(), createdAt: f.createdAt(), updatedAt: f.updatedAt() },
});

/** A workflow started from a default on one entity: its tasks, their assignees, due dates and statuses. */
export const workflow = defineEntity({
  type: 'workflow',
  table: 'workflow',
  module: 'workflows',
  nameField: 'name',
  fields: {
    id: f.id(),
    defaultWorkflow: f.ref(() => defaultWorkflow, named, { column: 'default_workflow_id', writable: false }),
    name: f.requiredString(),
    /** open or completed */
    status: f.requiredString({ writable: false }),
    sequential: f.boolean({ writable: false }),
    // written through `linkedTo` when the workflow starts, never changed after
    organization: f.ref(() => organization, named, { column: 'organization_id', restricted: true, writable: false }),
    person: f.ref(() => person, z.object({ id: z.string(), fullName: z.string().nullable() }), {
      column: 'person_id',
      restricted: true,
      writable: false,
    }),
    project: f.ref(() => projectTarget, named, { column: 'project_id', restricted: true, writable: false }),
    sale: f.ref(() => saleTarget, z.object({ id: z.string(), subject: z.string() }), {
      column: 'sale_id',
      restricted: true,
      writable: false,
    }),
    tasks: f.many(() => workflowTask, task, { remote: 'workflow_id', orderBy: (a) => `${a}.position, ${a}.id` }),
    startedAt: f.requiredDatetime({ writable: false }),
    completedAt: f.datetime({ writable: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export type Workflow = z.infer<typeof workflow.schema>;
export type DefaultWorkflow = z.infer<typeof defaultWorkflow.schema>;
