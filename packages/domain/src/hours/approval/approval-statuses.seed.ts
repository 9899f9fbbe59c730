import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../../shared/environment-seeders.js';
import { newEntityId } from '../../shared/ids.js';

/** The approval statuses of hours (hours/approvalstatus), one per state of the weekly approval flow. */
export const seedApprovalStatuses: EnvironmentSeeder = async (db) => {
  const statuses = [
    { key: 'open', label: 'Open' },
    { key: 'submitted', label: 'Submitted' },
    { key: 'approved', label: 'Approved' },
    { key: 'rejected', label: 'Rejected' },
  ];
  await db.approvalStatus.createMany({
    data: statuses.map((s, position) => ({
      ...s,
      position,
      id: newEntityId('approvalstatus'),
      environmentId: SCOPED_ENVIRONMENT,
    })),
  });
};
