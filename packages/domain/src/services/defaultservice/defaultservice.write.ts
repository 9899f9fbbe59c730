import type { TenantReader } from '@bo/db';
import { costType } from '../../costs/coststype/coststype.entity.js';
import { hourType } from '../../hours/hourstype/hourstype.entity.js';
import { insertRows } from '../../projects/sql-writes.js';
import type { EntityCreate, EntityUpdate, ReferenceCheck } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateDefaultServiceInput, UpdateDefaultServiceInput } from './defaultservice.schema.js';

const references = (input: UpdateDefaultServiceInput): ReferenceCheck[] => [
  ...(input.hourTypes ?? []).map((h, i) => ({ path: `hourTypes.${i}.hourTypeId`, target: hourType, id: h.hourTypeId })),
  ...(input.costTypes ?? []).map((c, i) => ({ path: `costTypes.${i}.costTypeId`, target: costType, id: c.costTypeId })),
];

function columns(input: UpdateDefaultServiceInput): Record<string, unknown> {
  return {
    name: input.name,
    explanation: input.explanation,
    price: input.price,
    price_editable: input.priceEditable,
    invoice_method: input.invoiceMethod,
    track_hours: input.trackHours,
    track_cost: input.trackCost,
    vat_class_id: input.vatClassId,
    revenue_group_id: input.revenueGroupId,
    my_organization_profile_id: input.myOrganizationProfileId,
  };
}

/** The lines named replace the template's lines of that kind: one statement per kind, queued. */
async function writeLines(sql: TenantReader, defaultServiceId: string, input: UpdateDefaultServiceInput) {
  if (input.hourTypes) {
    await sql.queue('DELETE FROM default_service_hour_type WHERE environment_id = $1 AND default_service_id = $2', [
      defaultServiceId,
    ]);
    await insertRows(
      sql,
      'default_service_hour_type',
      ['id', 'default_service_id', 'hour_type_id', 'tariff', 'budgeted_amount', 'position'],
      input.hourTypes.map((h, position) => [
        newEntityId('defaultservicehourtype'),
        defaultServiceId,
        h.hourTypeId,
        h.tariff ?? null,
        h.budgetedAmount ?? null,
        position,
      ]),
    );
  }
  if (input.costTypes) {
    await sql.queue('DELETE FROM default_service_cost_type WHERE environment_id = $1 AND default_service_id = $2', [
      defaultServiceId,
    ]);
    await insertRows(
      sql,
      'default_service_cost_type',
      ['id', 'default_service_id', 'cost_type_id', 'tariff', 'purchase_tariff', 'budgeted_amount', 'position'],
      input.costTypes.map((c, position) => [
        newEntityId('defaultservicecosttype'),
        defaultServiceId,
        c.costTypeId,
        c.tariff ?? null,
        c.purchaseTariff ?? null,
        c.budgetedAmount ?? null,
        position,
      ]),
    );
  }
}

export const createDefaultService: EntityCreate<CreateDefaultServiceInput> = {
  references,
  // the row, its lines and its event through the transaction's reader, queued: one round trip
  async run({ sql, now }, input) {
    const id = newEntityId('defaultservice');
    await sql.insert('default_service', { ...columns(input), id, updated_at: now });
    await writeLines(sql, id, input);
    return id;
  },
};

export const updateDefaultService: EntityUpdate<UpdateDefaultServiceInput> = {
  references,
  async run({ sql, now }, id, input) {
    await sql.update('default_service', id, { ...columns(input), updated_at: now });
    await writeLines(sql, id, input);
  },
};
