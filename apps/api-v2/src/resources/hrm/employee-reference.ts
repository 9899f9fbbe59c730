import { v2DateTime } from '../v2-names.js';

/** An employee as other v2 resources embed it (reference: Employee); `{id, name}` when the caller has no hrm right. */
export function employeeReferenceV2(
  e:
    | {
        id: string;
        personId: string | null;
        name: string;
        function: string | null;
        employmentStatus: string;
        workEmail: string | null;
        createdAt: Date;
        updatedAt: Date;
      }
    | { id: string; name: string | null },
): Record<string, unknown> {
  if (!('personId' in e)) return { id: e.id, name: e.name };
  return {
    id: e.id,
    person_id: e.personId,
    name: e.name,
    bank_account: null,
    function: e.function,
    type: null,
    employment_status: e.employmentStatus === 'active' ? 'active' : 'inactive',
    civil_status: null,
    work_phone: null,
    work_mobile: null,
    work_email: e.workEmail,
    hourly_sales_tariff: null,
    hourly_cost_tariff: null,
    avatar: null,
    created_at: v2DateTime(e.createdAt),
    updated_at: v2DateTime(e.updatedAt),
    simplicate_url: null,
  };
}
