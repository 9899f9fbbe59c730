import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';

/** The HRM lookups a new environment starts with (the migration seeds the same for environments that existed). */
export const HRM_SEED = {
  employeeStatuses: [
    // label: the system label integrations compare (q[status.label]=active); name: the readable text
    { key: 'active', label: 'active', name: 'Active', position: 0 },
    { key: 'inactive', label: 'inactive', name: 'Inactive', position: 1 },
    { key: 'unemployed', label: 'unemployed', name: 'Out of employment', position: 2 },
  ],
  civilStatuses: ['Single', 'Married', 'Registered partnership', 'Divorced', 'Widowed'],
  employeeTypes: ['Employee', 'Freelancer', 'Intern'],
  employmentTypes: ['Permanent', 'Temporary', 'On call'],
  contractTypes: ['Full-time', 'Part-time'],
  leaveTypes: [
    { label: 'Vacation', color: '#43a047', affectsBalance: true, contractGrants: true },
    { label: 'Time for time', color: '#1e88e5', affectsBalance: true, contractGrants: false },
    { label: 'Special leave', color: '#8e24aa', affectsBalance: false, contractGrants: false },
  ],
  leaveStatuses: [
    { key: 'requested', label: 'Requested' },
    { key: 'approved', label: 'Approved' },
    { key: 'rejected', label: 'Rejected' },
  ],
  absenceTypes: [
    { label: 'Sickness', color: '#e53935' },
    { label: 'Medical appointment', color: '#fb8c00' },
    { label: 'Other', color: '#757575' },
  ],
} as const;

const env = { environmentId: SCOPED_ENVIRONMENT };

export const seedHrmReferenceData: EnvironmentSeeder = async (db) => {
  const s = HRM_SEED;
  await db.employeeStatus.createMany({
    data: s.employeeStatuses.map((x) => ({ ...x, ...env, id: newEntityId('employeestatus') })),
  });
  await db.civilStatus.createMany({ data: s.civilStatuses.map((label) => ({ label, ...env, id: newEntityId('civilstatus') })) });
  await db.employeeType.createMany({
    data: s.employeeTypes.map((label) => ({ label, ...env, id: newEntityId('employeetype') })),
  });
  await db.employmentType.createMany({
    data: s.employmentTypes.map((name) => ({ name, ...env, id: newEntityId('employmenttype') })),
  });
  await db.contractType.createMany({ data: s.contractTypes.map((name) => ({ name, ...env, id: newEntityId('contracttype') })) });
  await db.leaveType.createMany({ data: s.leaveTypes.map((x) => ({ ...x, ...env, id: newEntityId('leavetype') })) });
  await db.leaveStatus.createMany({ data: s.leaveStatuses.map((x) => ({ ...x, ...env, id: newEntityId('leavestatus') })) });
  await db.absenceType.createMany({ data: s.absenceTypes.map((x) => ({ ...x, ...env, id: newEntityId('absencetype') })) });
};
