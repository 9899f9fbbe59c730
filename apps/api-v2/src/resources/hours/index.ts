import type { AnyV2Operation } from '../v2-operation.js';
import type { AnyV2Resource } from '../v2-resource.js';
import { approvalStatusV2Resource, approvalV2Resource, submissionV2Operations } from './approval.js';
import { hoursV2Resource } from './hours.js';
import { bookableServiceV2Resources } from './projectservices.js';
import { timesheetRowV2Delete, timesheetRowV2Operations } from './timesheetrow.js';
import type { V2RowOperation } from '../v2-resource.js';
import { expenseV2Resources } from '../costs/expense.js';
import { mileageV2Resources } from '../mileage/mileage.js';
import { timerV2Resource } from '../timers/timer.js';

/** Hours, time and costs (issue 10): registrations, the weekly approval flow, timers, mileage and expenses. */
export const hoursV2Resources: AnyV2Resource[] = [
  hoursV2Resource,
  approvalV2Resource,
  approvalStatusV2Resource,
  timerV2Resource,
  ...mileageV2Resources,
  ...expenseV2Resources,
  ...bookableServiceV2Resources,
];

export const hoursV2Operations: AnyV2Operation[] = [...submissionV2Operations, ...timesheetRowV2Operations];

export const hoursV2RowOperations: V2RowOperation[] = [timesheetRowV2Delete];
