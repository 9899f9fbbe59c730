import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';

/** Project statuses (the last one closes a project), assignment statuses and saved project filters of a new environment. */
export const seedProjectReferenceData: EnvironmentSeeder = async (db) => {
  const statuses = [
    // the system labels integrations compare, and the readable names (docs/fidelity.md)
    { label: 'tab_pactive', name: 'Active', color: '#2e7d32', isClosed: false },
    { label: 'tab_ponhold', name: 'On hold', color: '#f9a825', isClosed: false },
    { label: 'tab_pclosed', name: 'Closed', color: '#757575', isClosed: true },
  ];
  await db.projectStatus.createMany({
    data: statuses.map((s, position) => ({
      ...s,
      position,
      id: newEntityId('projectstatus'),
      environmentId: SCOPED_ENVIRONMENT,
    })),
  });
  const assignmentStatuses = [
    { name: 'To do', color: '#9e9e9e', isDone: false },
    { name: 'In progress', color: '#1976d2', isDone: false },
    { name: 'Done', color: '#2e7d32', isDone: true },
  ];
  await db.assignmentStatus.createMany({
    data: assignmentStatuses.map((s, position) => ({
      ...s,
      position,
      id: newEntityId('assignmentstatus'),
      environmentId: SCOPED_ENVIRONMENT,
    })),
  });
  const filters = [
    { name: 'Billable projects', key: 'billable', values: ['true'] },
    { name: 'In acquisition', key: 'phase', values: ['acquisition'] },
  ];
  await db.projectFilter.createMany({
    data: filters.map((f) => ({ ...f, id: newEntityId('projectfilter'), environmentId: SCOPED_ENVIRONMENT })),
  });
};
