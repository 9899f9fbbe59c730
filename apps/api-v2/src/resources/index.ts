import { mergeOperations } from './crm/merge.js';
import { organizationV2 } from './crm/organization.js';
import type { AnyV2Operation } from './v2-operation.js';
import type { AnyV2Resource } from './v2-resource.js';
import { defaultActionV2, defaultTaskV2, defaultWorkflowGroupV2, defaultWorkflowV2, workflowV2 } from './workflows/workflow.js';

/** Every v2 resource declared the new way; the rest are still mounted from the domain's registry. */
export const v2Resources: AnyV2Resource[] = [
  organizationV2,
  workflowV2,
  defaultWorkflowV2,
  defaultWorkflowGroupV2,
  defaultActionV2,
  defaultTaskV2,
];

/** v2 paths that are operations rather than resources. */
export const v2Operations: AnyV2Operation[] = [...mergeOperations];
