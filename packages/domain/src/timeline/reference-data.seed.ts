import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';

/** Timeline message types a new environment starts with. */
export const seedMessageTypes: EnvironmentSeeder = async (db) => {
  const types = [
    { label: 'Note', logAction: 'note' },
    { label: 'Phone call', logAction: 'call' },
    { label: 'Meeting', logAction: 'meeting' },
    { label: 'E-mail', logAction: 'email' },
    { label: 'Summary', logAction: 'summary' },
  ];
  await db.timelineMessageType.createMany({
    data: types.map((t) => ({ ...t, id: newEntityId('messagetype'), environmentId: SCOPED_ENVIRONMENT })),
  });
};
