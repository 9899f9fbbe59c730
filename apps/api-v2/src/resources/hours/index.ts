import type { AnyV2Operation } from '../v2-operation.js';
import type { AnyV2Resource } from '../v2-resource.js';
import { approvalStatusV2Resource, approvalV2Resource, submissionV2Operations } from './approval.js';
import { hoursV2Resource } from './hours.js';

/** Hours, time and costs (issue 10): registrations, the weekly approval flow, timers, mileage and expenses. */
export const hoursV2Resources: AnyV2Resource[] = [hoursV2Resource, approvalV2Resource, approvalStatusV2Resource];

export const hoursV2Operations: AnyV2Operation[] = [...submissionV2Operations];
