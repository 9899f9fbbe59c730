import type { Models, SqlModel } from '@bo/db';
import { v2DateTime, v3DateTime } from '../../shared/format.js';
import { num } from '../../shared/numbers.js';
import type { Db, ResourceDefinition } from '../../shared/resources/definition.js';

/** Cost types carry the id prefix `itemtype:`; v2 accepts them in a project service's hour_types. */
export const COST_TYPE_PREFIX = 'itemtype';

export const costTypeSql: SqlModel = {
  table: 'cost_type',
  fields: {
    id: { column: 'id', type: 'id' },
    label: { column: 'label', type: 'string' },
    blocked: { column: 'blocked', type: 'boolean' },
    tariff: { column: 'tariff', type: 'number' },
    is_unit_tariff: { column: 'is_unit_tariff', type: 'boolean' },
    unit_name: { column: 'unit_name', type: 'string' },
    is_attachment_allowed: { column: 'is_attachment_allowed', type: 'boolean' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

/** Reference: GetPurchaseType (the cost type nested in project services, and both v2 lists). */
export function costTypeV2(c: Models.CostTypeModel) {
  return {
    id: c.id,
    label: c.label,
    blocked: c.blocked,
    tariff: num(c.tariff),
    is_unit_tariff: c.isUnitTariff,
    unit_name: c.unitName,
    is_attachment_allowed: c.isAttachmentAllowed,
  };
}

function costTypeV3(c: Models.CostTypeModel) {
  return {
    id: c.id,
    label: c.label,
    blocked: c.blocked,
    tariff: num(c.tariff),
    isUnitTariff: c.isUnitTariff,
    unitName: c.unitName,
    isAttachmentAllowed: c.isAttachmentAllowed,
    createdAt: v3DateTime(c.createdAt),
    updatedAt: v3DateTime(c.updatedAt),
  };
}

/** One table, two read-only v2 resources: costs/coststype and projects/purchasetype. */
function costTypeResourceAt(name: string, module: 'costs' | 'projects'): ResourceDefinition<Models.CostTypeModel> {
  return {
    name,
    entityType: COST_TYPE_PREFIX,
    module,
    sql: costTypeSql,
    defaultSort: [{ path: 'label', dir: 'asc' }],
    load: (db: Db, ids: string[]) => db.costType.findMany({ where: { id: { in: ids } } }),
    views: {
      v2: (c) => ({ ...costTypeV2(c), created_at: v2DateTime(c.createdAt), updated_at: v2DateTime(c.updatedAt) }),
      v3: costTypeV3,
    },
    remove: false,
  };
}

export const costTypeResource = costTypeResourceAt('costs/coststype', 'costs');
export const purchaseTypeResource = costTypeResourceAt('projects/purchasetype', 'projects');
