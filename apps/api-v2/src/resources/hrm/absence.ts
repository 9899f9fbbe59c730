import type { Absence } from '@bo/domain/hrm/absence/absence.entity';
import { createAbsenceInput, updateAbsenceInput } from '@bo/domain/hrm/absence/absence.schema';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';
import { employeeSimpleV2 } from './employee.js';

const names = v2Names({ absencetype: 'absenceType' });

/** hrm/absence read (reference: GetAbsence) with end_date empty while ongoing and absence_ongoing (2025-01). */
export function absenceV2(a: Absence): Record<string, unknown> {
  return {
    id: a.id,
    employee: a.employee ? employeeSimpleV2(a.employee) : null,
    hours: a.hours,
    absencetype: a.absenceType
      ? { id: a.absenceType.id, label: a.absenceType.label, blocked: a.absenceType.blocked, color: a.absenceType.color }
      : null,
    created_at: v2DateTime(a.createdAt),
    updated_at: v2DateTime(a.updatedAt),
    year: a.year,
    start_date: v2DateTime(a.startDate),
    end_date: v2DateTime(a.endDate),
    absence_ongoing: a.absenceOngoing,
    is_time_defined: a.isTimeDefined,
    description: a.description,
  };
}

/** hrm/absence: GET, POST, PUT, DELETE (PostAbsence). */
export const absenceV2Resource = v2Resource<Absence>({
  path: 'hrm/absence',
  procedures: (c) => c.hrm.absence,
  inputs: { create: createAbsenceInput, update: updateAbsenceInput, remove: true },
  names,
  read: absenceV2,
  documentAsBuilt: ['employee', 'absencetype', 'start_date', 'end_date'],
  errorCodes: true,
  conformance: false,
});

/** hours/absence: the same writes as hrm/absence (the reference gives both PostAbsence); POST and PUT only. */
export const hoursAbsenceV2 = v2Resource<Absence>({
  ...absenceV2Resource,
  path: 'hours/absence',
  methods: { delete: false },
});
