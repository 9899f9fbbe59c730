import { myOrganizationProfileTarget } from '../../crm/myorganization/myorganizationprofile.target.js';
import { z } from 'zod';
import { costType } from '../../costs/coststype/coststype.entity.js';
import { hourType } from '../../hours/hourstype/hourstype.entity.js';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { targets } from '../../shared/entity/targets.js';

const typeReference = z.object({ id: z.string(), label: z.string(), tariff: z.number().nullable() });

/** An hour type of a default service, with the tariff and budget a new service starts with. */
export const defaultServiceHourType = defineEntity({
  type: 'defaultservicehourtype',
  table: 'default_service_hour_type',
  module: 'projects',
  fields: {
    id: f.id(),
    hourType: f.ref((): TargetEntity => hourType, typeReference, { column: 'hour_type_id' }),
    tariff: f.decimal(),
    budgetedAmount: f.decimal(),
    position: f.requiredInteger(),
  },
});

/** A cost type of a default service. */
export const defaultServiceCostType = defineEntity({
  type: 'defaultservicecosttype',
  table: 'default_service_cost_type',
  module: 'projects',
  fields: {
    id: f.id(),
    costType: f.ref((): TargetEntity => costType, typeReference, { column: 'cost_type_id' }),
    tariff: f.decimal(),
    purchaseTariff: f.decimal(),
    budgetedAmount: f.decimal(),
    position: f.requiredInteger(),
  },
});

const byPosition = (a: string) => `${a}.position, ${a}.id`;

/** A template project services are built from: invoice method, tracking, hour and cost types with tariffs. */
export const defaultService = defineEntity({
  type: 'defaultservice',
  table: 'default_service',
  module: 'projects',
  nameField: 'name',
  defaultSort: [{ path: 'name', dir: 'asc' }],
  fields: {
    id: f.id(),
    name: f.requiredString(),
    explanation: f.string(),
    price: f.decimal(),
    priceEditable: f.boolean(),
    /** fixed_price, time_and_expenses or subscription */
    invoiceMethod: f.requiredString(),
    trackHours: f.boolean(),
    trackCost: f.boolean(),
    vatClassId: f.string({ references: () => targets.vatClass }),
    revenueGroupId: f.string({ references: () => targets.revenueGroup }),
    myOrganizationProfileId: f.string({ references: (): TargetEntity => myOrganizationProfileTarget }),
    hourTypes: f.many(
      () => defaultServiceHourType,
      z.object({
        id: z.string(),
        hourType: typeReference.nullable(),
        tariff: z.number().nullable(),
        budgetedAmount: z.number().nullable(),
      }),
      { remote: 'default_service_id', orderBy: byPosition, filter: false },
    ),
    costTypes: f.many(
      () => defaultServiceCostType,
      z.object({
        id: z.string(),
        costType: typeReference.nullable(),
        tariff: z.number().nullable(),
        purchaseTariff: z.number().nullable(),
        budgetedAmount: z.number().nullable(),
      }),
      { remote: 'default_service_id', orderBy: byPosition, filter: false },
    ),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type DefaultService = z.infer<typeof defaultService.schema>;
