import { employeeEndpoints } from './employee.js';
import { invoiceDraftRequestEndpoints } from './invoice-draft-request.js';
import { organizationEndpoints } from './organization.js';
import { projectEndpoints } from './project.js';
import { saleEndpoints } from './sale.js';
import type { TypedEndpoint } from './types.js';
import { absenceEndpoints } from './absence.js';
import { leaveEndpoints } from './leave.js';
import { timetableEndpoints } from './timetable.js';
import { webhookEndpoints } from './webhook.js';
import { changeEndpoints } from './change.js';
import { workflowEndpoints } from './workflow.js';
import { invoiceEndpoints } from './invoice.js';
import { paymentEndpoints } from './payment.js';
import { hoursEndpoints } from './hours.js';
import { timerEndpoints } from './timer.js';
import { timesheetEndpoints } from './timesheet.js';

export type Endpoint = TypedEndpoint;

/** Every v3 endpoint by name: `{entity}.{action}`. */
export const endpoints: Record<string, Endpoint> = {
  ...organizationEndpoints,
  ...projectEndpoints,
  ...employeeEndpoints,
  ...invoiceDraftRequestEndpoints,
  ...webhookEndpoints,
  ...changeEndpoints,
  ...saleEndpoints,
  ...workflowEndpoints,
  ...invoiceEndpoints,
  ...paymentEndpoints,
  ...timetableEndpoints,
  ...leaveEndpoints,
  ...absenceEndpoints,
  ...hoursEndpoints,
  ...timesheetEndpoints,
  ...timerEndpoints,
};
export type { EndpointDoc, NamedSchema } from './types.js';
