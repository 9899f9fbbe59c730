import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';
import { COST_TYPE_PREFIX } from './coststype/coststype.entity.js';

/** The cost (purchase) types a new environment starts with. */
export const seedCostTypes: EnvironmentSeeder = async (db) => {
  const costTypes = [
    { label: 'Travel expenses', tariff: 0.23, isUnitTariff: true, unitName: 'km' },
    { label: 'Materials', tariff: null, isUnitTariff: false, unitName: null },
    { label: 'Software licences', tariff: null, isUnitTariff: false, unitName: null },
  ];
  await db.costType.createMany({
    data: costTypes.map((c) => ({ ...c, id: newEntityId(COST_TYPE_PREFIX), environmentId: SCOPED_ENVIRONMENT })),
  });
};
