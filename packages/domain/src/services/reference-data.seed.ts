import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';
import { num } from '../shared/numbers.js';

/**
 * A default service to build project services from, made of the environment's
 * seeded hour and cost types (so it runs after their seeders), and the advance
 * service configuration that points at it.
 */
export const seedDefaultServices: EnvironmentSeeder = async (db) => {
  const hourTypes = await db.hourType.findMany({ orderBy: { label: 'asc' } });
  const costTypes = await db.costType.findMany({ orderBy: { label: 'asc' } });
  const id = newEntityId('defaultservice');
  await db.defaultService.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      name: 'Web development',
      explanation: 'Design and build of a website, invoiced on hours spent',
      invoiceMethod: 'time_and_expenses',
      price: null,
    },
  });
  await db.defaultServiceHourType.createMany({
    data: hourTypes
      .filter((h) => h.label !== 'Travel')
      .map((h, position) => ({
        id: newEntityId('defaultservicehourtype'),
        environmentId: SCOPED_ENVIRONMENT,
        defaultServiceId: id,
        hourTypeId: h.id,
        tariff: num(h.tariff),
        budgetedAmount: 10,
        position,
      })),
  });
  await db.defaultServiceCostType.createMany({
    data: costTypes.slice(0, 1).map((c, position) => ({
      id: newEntityId('defaultservicecosttype'),
      environmentId: SCOPED_ENVIRONMENT,
      defaultServiceId: id,
      costTypeId: c.id,
      tariff: num(c.tariff),
      budgetedAmount: 100,
      position,
    })),
  });
  const advanceId = newEntityId('defaultservice');
  await db.defaultService.create({
    data: { id: advanceId, environmentId: SCOPED_ENVIRONMENT, name: 'Advance payment', invoiceMethod: 'fixed_price' },
  });
  await db.advanceServiceConfiguration.create({
    data: {
      id: newEntityId('advanceserviceconfiguration'),
      environmentId: SCOPED_ENVIRONMENT,
      name: 'Advance payment',
      defaultServiceId: advanceId,
    },
  });
};
