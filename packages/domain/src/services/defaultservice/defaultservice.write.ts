import { SCOPED_ENVIRONMENT } from '@bo/db';
import { costType } from '../../costs/coststype/coststype.entity.js';
import { hourType } from '../../hours/hourstype/hourstype.entity.js';
import type { EntityCreate, EntityTransaction, EntityUpdate, ReferenceCheck } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateDefaultServiceInput, UpdateDefaultServiceInput } from './defaultservice.schema.js';

const references = (input: UpdateDefaultServiceInput): ReferenceCheck[] => [
  ...(input.hourTypes ?? []).map((h, i) => ({ path: `hourTypes.${i}.hourTypeId`, target: hourType, id: h.hourTypeId })),
  ...(input.costTypes ?? []).map((c, i) => ({ path: `costTypes.${i}.costTypeId`, target: costType, id: c.costTypeId })),
];

function columns(input: UpdateDefaultServiceInput) {
  return {
    name: input.name,
    explanation: input.explanation,
    price: input.price,
    priceEditable: input.priceEditable,
    invoiceMethod: input.invoiceMethod,
    trackHours: input.trackHours,
    trackCost: input.trackCost,
    vatClassId: input.vatClassId,
    revenueGroupId: input.revenueGroupId,
    myOrganizationProfileId: input.myOrganizationProfileId,
  };
}

/** The lines named replace the template's lines of that kind. */
async function writeLines(tx: EntityTransaction, defaultServiceId: string, input: UpdateDefaultServiceInput) {
  if (input.hourTypes) {
    await tx.defaultServiceHourType.deleteMany({ where: { defaultServiceId } });
    await tx.defaultServiceHourType.createMany({
      data: input.hourTypes.map((h, position) => ({
        id: newEntityId('defaultservicehourtype'),
        environmentId: SCOPED_ENVIRONMENT,
        defaultServiceId,
        hourTypeId: h.hourTypeId,
        tariff: h.tariff ?? null,
        budgetedAmount: h.budgetedAmount ?? null,
        position,
      })),
    });
  }
  if (input.costTypes) {
    await tx.defaultServiceCostType.deleteMany({ where: { defaultServiceId } });
    await tx.defaultServiceCostType.createMany({
      data: input.costTypes.map((c, position) => ({
        id: newEntityId('defaultservicecosttype'),
        environmentId: SCOPED_ENVIRONMENT,
        defaultServiceId,
        costTypeId: c.costTypeId,
        tariff: c.tariff ?? null,
        purchaseTariff: c.purchaseTariff ?? null,
        budgetedAmount: c.budgetedAmount ?? null,
        position,
      })),
    });
  }
}

export const createDefaultService: EntityCreate<CreateDefaultServiceInput> = {
  references,
  async run({ tx }, input) {
    const id = newEntityId('defaultservice');
    await tx.defaultService.create({ data: { ...columns(input), name: input.name, id, environmentId: SCOPED_ENVIRONMENT } });
    await writeLines(tx, id, input);
    return id;
  },
};

export const updateDefaultService: EntityUpdate<UpdateDefaultServiceInput> = {
  references,
  async run({ tx, now }, id, input) {
    await tx.defaultService.update({ where: { id }, data: { ...columns(input), updatedAt: now } });
    await writeLines(tx, id, input);
  },
};
