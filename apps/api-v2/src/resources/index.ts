import { changesV2 } from './changes.js';
import { mergeOperations } from './crm/merge.js';
import type { AnyV2Operation } from './v2-operation.js';
import { costTypeV2Resource, purchaseTypeV2Resource } from './costs/coststype.js';
import { organizationV2 } from './crm/organization.js';
import { convertToProjectV2, saleV2Resource } from './sales/sale.js';
import { saleDocumentTypeV2, saleDocumentV2 } from './sales/document.js';
import {
  quoteStatusV2,
  quoteTemplateV2,
  revenueGroupV2,
  salesFilterV2,
  salesProgressV2,
  salesReasonV2,
  salesSourceV2,
  salesStatusV2,
} from './sales/lookups.js';
import { quoteEmailV2, quoteV2Resource, saleQuoteV2Resource } from './sales/quote.js';
import { saleServiceV2Resource } from './sales/service.js';
import type { V2RowOperation } from './v2-resource.js';

import { employeeV2 } from './hrm/employee.js';
import { hourTypeV2Resource } from './hours/hourstype.js';
import { assignmentV2 } from './projects/assignment.js';
import { projectV2 } from './projects/project.js';
import { assignmentBudgetV2 } from './projects/assignmentbudget.js';
import { sharedItemV2 } from './shared/item.js';
import { projectDocumentTypeV2, projectDocumentV2 } from './projects/document.js';
import { projectEmployeeV2 } from './projects/projectemployee.js';
import { purchaseV2 } from './projects/purchase.js';
import { assignmentStatusResourceV2, projectFilterV2, projectStatusV2 } from './projects/reference.js';
import { projectServiceV2 } from './projects/service.js';
import { defaultServiceV2 } from './services/defaultservice.js';
import { crmV2Resources } from './crm/index.js';
import { customFieldsV2Resources } from './customfields/customfields.js';
import { documentsV2Resources } from './documents/index.js';
import { timelineV2Resources } from './timeline/timeline.js';
import type { AnyV2Resource } from './v2-resource.js';
import { invoicesV2Resources } from './invoices/index.js';
import { absenceV2Resource, hoursAbsenceV2 } from './hrm/absence.js';
import { hoursLeaveV2, leaveV2Resource } from './hrm/leave.js';
import { leaveBalanceV2 } from './hrm/leavebalance.js';
import { employeeCustomFieldGroupsV2, employeeCustomFieldsV2 } from './hrm/customfields.js';
import {
  absenceTypeV2,
  civilStatusV2,
  contractTypeV2,
  contractV2,
  employeeDocumentTypeV2,
  employeeDocumentV2,
  employeeTypeV2,
  employmentTypeV2,
  leaveTypeV2,
  teamV2,
} from './hrm/lookups.js';
import { timetableV2 } from './hrm/timetable.js';
import { defaultActionV2, defaultTaskV2, defaultWorkflowGroupV2, defaultWorkflowV2, workflowV2 } from './workflows/workflow.js';
import { hoursV2Operations, hoursV2Resources, hoursV2RowOperations } from './hours/index.js';

/** Every v2 resource declared the new way; the rest are still mounted from the domain's registry. */
export const v2Resources: AnyV2Resource[] = [
  organizationV2,
  workflowV2,
  defaultWorkflowV2,
  defaultWorkflowGroupV2,
  defaultActionV2,
  defaultTaskV2,
  projectV2,
  projectServiceV2,
  assignmentV2,
  projectEmployeeV2,
  purchaseV2,
  projectStatusV2,
  projectFilterV2,
  purchaseTypeV2Resource,
  defaultServiceV2,
  hourTypeV2Resource,
  costTypeV2Resource,
  employeeV2,
  ...crmV2Resources,
  ...documentsV2Resources,
  ...customFieldsV2Resources,
  ...timelineV2Resources,
  saleV2Resource,
  saleServiceV2Resource,
  quoteV2Resource,
  saleQuoteV2Resource,
  quoteTemplateV2,
  quoteStatusV2,
  revenueGroupV2,
  salesReasonV2,
  salesSourceV2,
  salesStatusV2,
  salesProgressV2,
  salesFilterV2,
  saleDocumentV2,
  saleDocumentTypeV2,
  projectDocumentV2,
  projectDocumentTypeV2,
  assignmentStatusResourceV2,
  sharedItemV2,
  ...invoicesV2Resources,
  timetableV2,
  leaveV2Resource,
  hoursLeaveV2,
  absenceV2Resource,
  hoursAbsenceV2,
  teamV2,
  civilStatusV2,
  employeeTypeV2,
  employmentTypeV2,
  contractTypeV2,
  contractV2,
  leaveTypeV2,
  absenceTypeV2,
  employeeDocumentV2,
  employeeDocumentTypeV2,
  employeeCustomFieldsV2,
  employeeCustomFieldGroupsV2,
  ...hoursV2Resources,
];

/** v2 paths that are operations rather than resources. */
export const v2Operations: AnyV2Operation[] = [
  ...mergeOperations,
  leaveBalanceV2,
  assignmentBudgetV2,
  ...hoursV2Operations,
  changesV2,
];

/** Operations of their own path on one row (sales/quoteemail/{id}, sales/converttoproject/{id}). */
export const v2RowOperations: V2RowOperation[] = [quoteEmailV2, convertToProjectV2, ...hoursV2RowOperations];
