import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';
import { HOUR_TYPE_PREFIX } from './hourstype/hourstype.entity.js';

/** The hour types a new environment starts with. */
export const seedHourTypes: EnvironmentSeeder = async (db) => {
  const hourTypes = [
    { label: 'Development', tariff: 95, color: '#1565c0' },
    { label: 'Design', tariff: 85, color: '#6a1b9a' },
    { label: 'Project management', tariff: 105, color: '#2e7d32' },
    { label: 'Travel', tariff: 50, color: '#f9a825' },
  ];
  await db.hourType.createMany({
    data: hourTypes.map((h) => ({ ...h, id: newEntityId(HOUR_TYPE_PREFIX), environmentId: SCOPED_ENVIRONMENT })),
  });
};
