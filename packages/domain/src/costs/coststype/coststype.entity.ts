import { z } from 'zod';
import { defineEntity, f } from '../../shared/entity/index.js';
import type { ModuleName } from '../../shared/rights.js';

/** Cost types carry the id prefix `itemtype:`, the prefix a project service's cost type lines accept. */
export const COST_TYPE_PREFIX = 'itemtype';

const costTypeFields = {
  id: f.id(),
  label: f.requiredString(),
  blocked: f.boolean(),
  tariff: f.decimal(),
  isUnitTariff: f.boolean(),
  unitName: f.string(),
  isAttachmentAllowed: f.boolean(),
  createdAt: f.createdAt(),
  updatedAt: f.updatedAt(),
};

const costTypeAt = (module: ModuleName) =>
  defineEntity({
    type: COST_TYPE_PREFIX,
    table: 'cost_type',
    module,
    nameField: 'label',
    defaultSort: [{ path: 'label', dir: 'asc' }],
    fields: costTypeFields,
  });

/** A kind of costs (materials, travel, …): guarded by the costs right. */
export const costType = costTypeAt('costs');
/** The same cost types seen from projects as purchase types: guarded by the projects right. */
export const purchaseType = costTypeAt('projects');
export type CostType = z.infer<typeof costType.schema>;

/** How project services embed a cost type. */
export const costTypeShape = z.object({
  id: z.string(),
  label: z.string(),
  blocked: z.boolean(),
  tariff: z.number().nullable(),
  isUnitTariff: z.boolean(),
  unitName: z.string().nullable(),
  isAttachmentAllowed: z.boolean(),
});
export type EmbeddedCostType = z.infer<typeof costTypeShape>;
