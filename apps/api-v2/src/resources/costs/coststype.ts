import { type CostType, type EmbeddedCostType, costType, purchaseType } from '@bo/domain/costs/coststype/coststype.entity';
import { v2DateTime, v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names();

/** Reference: GetPurchaseType (the cost type nested in project services, and both v2 lists). */
export function costTypeV2(c: EmbeddedCostType) {
  return {
    id: c.id,
    label: c.label,
    blocked: c.blocked,
    tariff: c.tariff,
    is_unit_tariff: c.isUnitTariff,
    unit_name: c.unitName,
    is_attachment_allowed: c.isAttachmentAllowed,
  };
}

const read = (c: CostType) => ({ ...costTypeV2(c), created_at: v2DateTime(c.createdAt), updated_at: v2DateTime(c.updatedAt) });

/** costs/coststype, read-only */
export const costTypeV2Resource = v2Resource<CostType>({
  path: 'costs/coststype',
  entity: costType,
  procedures: (c) => c.costs.coststype,
  names,
  // the reference answers this list in the hour-type shape (HoursType), which has a colour (cost types
  // have none) and a string tariff, as hours/hourstype answers it: a client of the real service reads
  // both lists with one parser. Nested in project services and in projects/purchasetype the tariff is
  // a number (GetPurchaseType)
  read: (c) => ({ ...read(c), tariff: c.tariff === null ? null : String(c.tariff), color: null }),
});

/** projects/purchasetype: the same cost types under the projects right, read-only */
export const purchaseTypeV2Resource = v2Resource<CostType>({
  path: 'projects/purchasetype',
  entity: purchaseType,
  procedures: (c) => c.projects.purchasetype,
  names,
  read,
});
