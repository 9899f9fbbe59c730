import {
  type DefaultWorkflow,
  defaultAction,
  defaultTask,
  defaultWorkflow,
  defaultWorkflowGroup,
  type Workflow,
  workflow,
} from '@bo/domain/workflows/workflow.entities';
import { startWorkflowInput, updateWorkflowInput } from '@bo/domain/workflows/workflow.schema';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

/** `linked_to` keys are those of documents (`sales_id` for a sale). */
const names = v2Names({ sales_id: 'saleId' });

/** workflows/workflow: our shape (the reference has none); `linked_to` as documents have it. */
export const workflowV2 = v2Resource<Workflow>({
  path: 'workflows/workflow',
  entity: workflow,
  procedures: (c) => c.workflows.workflow,
  names,
  inputs: { create: startWorkflowInput, update: updateWorkflowInput, remove: true },
  read: (w) =>
    Object.assign(names.output(w) as Record<string, unknown>, {
      linked_to: {
        organization_id: w.organization?.id ?? null,
        person_id: w.person?.id ?? null,
        project_id: w.project?.id ?? null,
        sales_id: w.sale?.id ?? null,
      },
    }),
});

const readOnly = { create: false, update: false, delete: false } as const;
const plain = v2Names();

export const defaultWorkflowV2 = v2Resource<DefaultWorkflow>({
  path: 'workflows/defaultworkflow',
  entity: defaultWorkflow,
  procedures: (c) => c.workflows.defaultworkflow,
  names: plain,
  read: (d) => plain.output(d) as Record<string, unknown>,
  methods: readOnly,
  readOnly: true,
});

export const defaultWorkflowGroupV2 = v2Resource({
  path: 'workflows/defaultworkflowgroup',
  entity: defaultWorkflowGroup,
  procedures: (c) => c.workflows.defaultworkflowgroup,
  names: plain,
  read: (d) => plain.output(d) as Record<string, unknown>,
  methods: readOnly,
  readOnly: true,
});

export const defaultActionV2 = v2Resource({
  path: 'workflows/defaultaction',
  entity: defaultAction,
  procedures: (c) => c.workflows.defaultaction,
  names: plain,
  read: (d) => plain.output(d) as Record<string, unknown>,
  methods: readOnly,
  readOnly: true,
});

export const defaultTaskV2 = v2Resource({
  path: 'workflows/defaulttask',
  entity: defaultTask,
  procedures: (c) => c.workflows.defaulttask,
  names: plain,
  read: (d) => plain.output(d) as Record<string, unknown>,
  methods: readOnly,
  readOnly: true,
});
