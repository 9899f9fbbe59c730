import { type Hours, hours } from '@bo/domain/hours/hours/hours.entity';
import { createHoursInput, updateHoursInput } from '@bo/domain/hours/hours/hours.schema';
import { customFieldValuesV2 } from '../customfields/values.js';
import { employeeSimpleV2, projectSimpleV2 } from '../shared/simple.js';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { hourTypeV2 } from './hourstype.js';

export const hoursNames = v2Names({
  projectservice_id: 'projectServiceId',
  projectservice: 'projectService',
  type_id: 'hourTypeId',
  type: 'hourType',
  duration_in_minutes: 'durationMinutes',
  note: 'description',
  approvalstatus: 'approvalStatus',
  approvalstatus_id: 'approvalStatusId',
  is_productive: 'isProductive',
});

/** IsSatisfied: the value, and why not when it is false. */
const satisfied = (value: boolean, reason: string) => {
  const message = `The hours are ${reason}; they can no longer be changed or deleted.`;
  return { value, reason: value ? null : { message, translated_message: message } };
};

/** hours/hours (reference: GetHours); is_editable and is_deletable only when selected (2025-09). */
export function hoursV2(h: Hours) {
  const service = h.projectService;
  const lockReason = h.invoiceId ? 'invoiced' : h.approvalStatus;
  return {
    id: h.id,
    employee: h.employee ? employeeSimpleV2(h.employee) : null,
    project: projectSimpleV2(h.project),
    projectservice: service
      ? {
          id: service.id,
          name: service.name,
          // the service's registration timeframe (2025-07); absent when the caller may not read projects
          start_date: service.writeHoursStartDate ?? null,
          until_date: service.writeHoursEndDate ?? null,
          default_service_id: service.defaultServiceId ?? null,
          revenue_group_id: service.revenueGroupId ?? null,
        }
      : null,
    type: h.hourType ? hourTypeV2(h.hourType) : null,
    approvalstatus: h.approvalStatusRow ? { id: h.approvalStatusRow.id, label: h.approvalStatusRow.label } : null,
    invoice_status: h.invoiceId ? 'invoiced' : null,
    invoice_id: h.invoiceId,
    invoiceline_id: null,
    tariff: h.tariff,
    custom_fields: customFieldValuesV2(h.customFields),
    created_at: v2DateTime(h.createdAt),
    updated_at: v2DateTime(h.updatedAt),
    locked: !h.isEditable,
    is_editable: satisfied(h.isEditable, lockReason),
    is_deletable: satisfied(h.isDeletable, lockReason),
    leave_status: null,
    leave_id: null,
    absence_id: null,
    status: h.approvalStatus,
    // this service keeps no corrections of hours: none made, so zero, never a date
    corrections: { amount: 0, value: 0, last_correction_date: null },
    mileage: null,
    is_productive: h.isProductive,
    hours: Math.round((h.durationMinutes / 60) * 10_000) / 10_000,
    duration_in_minutes: h.durationMinutes,
    start_date: h.startDate,
    end_date: h.startDate,
    is_time_defined: false,
    is_recurring: false,
    recurrence: null,
    is_external: false,
    billable: h.billable,
    note: h.description,
    address: null,
    assignment_id: null,
    should_sync_to_cronofy: false,
    source: h.source,
  };
}

export const hoursV2Resource = v2Resource<Hours>({
  path: 'hours/hours',
  entity: hours,
  inputs: { create: createHoursInput, update: updateHoursInput, remove: true },
  procedures: (c) => c.hours.hours,
  names: hoursNames,
  read: hoursV2,
  selectOnly: ['is_editable', 'is_deletable'],
});
