import { type Mileage, mileage } from '@bo/domain/mileage/mileage.entity';
import { createMileageInput, updateMileageInput } from '@bo/domain/mileage/mileage.schema';
import { employeeSimpleV2 } from '../hrm/employee.js';
import { projectSimpleV2 } from '../shared/simple.js';
import { v2DateTime, v2Names } from '../v2-names.js';
import { type AnyV2Resource, v2Resource } from '../v2-resource.js';

const names = v2Names({
  mileage: 'distance',
  approvalstatus: 'approvalStatus',
  approvalstatus_id: 'approvalStatusId',
  related_hours_id: 'relatedHoursId',
});

/** mileage/mileage (reference: GetMileage, with related_hours_id of 2021). */
function mileageV2(m: Mileage) {
  return {
    id: m.id,
    employee: m.employee ? employeeSimpleV2(m.employee) : null,
    project: projectSimpleV2(m.project),
    type: null,
    approvalstatus: m.approvalStatusRow,
    invoice_status: m.invoiceId ? 'invoiced' : null,
    invoice_id: m.invoiceId,
    invoiceline_id: null,
    tariff: m.tariff,
    vatclass: null,
    created_at: v2DateTime(m.createdAt),
    updated_at: v2DateTime(m.updatedAt),
    mileage: m.distance,
    related_hours_id: m.relatedHours?.id ?? null,
    source: m.source,
    note: m.note,
    start_date: m.startDate,
  };
}

const resource = (path: string) =>
  v2Resource<Mileage>({
    path,
    entity: mileage,
    inputs: { create: createMileageInput, update: updateMileageInput, remove: true },
    procedures: (c) => c.mileage.mileage,
    names,
    read: mileageV2,
  });

/** mileage/mileage, and the seed's hours/mileage as the same data. */
export const mileageV2Resources: AnyV2Resource[] = [resource('mileage/mileage'), resource('hours/mileage')];
