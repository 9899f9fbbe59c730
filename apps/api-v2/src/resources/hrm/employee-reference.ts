import { v2DateTime } from '../v2-names.js';
import type { ProjectionKeys } from '@bo/domain';
import { V2_NULL } from '../v2-shape.js';

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

/** The same v2 form as a shape, for resources whose read is declared (v2-shape.ts); over an employee reference's fields. */
export const employeeReferenceShapeV2: ProjectionKeys = {
  id: 'id',
  person_id: 'personId',
  name: 'name',
  bank_account: V2_NULL,
  function: 'function',
  type: V2_NULL,
  employment_status: { equals: 'employmentStatus', value: 'active', ifEqual: 'active', ifNot: 'inactive' },
  civil_status: V2_NULL,
  work_phone: V2_NULL,
  work_mobile: V2_NULL,
  work_email: 'workEmail',
  hourly_sales_tariff: V2_NULL,
  hourly_cost_tariff: V2_NULL,
  avatar: V2_NULL,
  created_at: 'createdAt',
  updated_at: 'updatedAt',
  simplicate_url: V2_NULL,
};
