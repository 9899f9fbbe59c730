import { writeCustomFields } from '../customfields/index.js';
import type { EntityUpdate } from '../shared/entity/index.js';
import type { UpdateSaleInput } from './sale.schema.js';
import {
  assertContactOfOrganization,
  assertReasonNotBlocked,
  resolveRelation,
  saleColumns,
  saleReferences,
  writeLinkedProjects,
} from './sale.write.js';

/**
 * Changes the fields a write names. personId or organizationId switches the relation
 * (2023-06); divergentPaymentTermId names a payment term (2026-03); linkedProjectIds, when
 * given, replaces the set.
 */
export const updateSale: EntityUpdate<UpdateSaleInput> = {
  references: saleReferences,
  async run({ tx, sql, now }, id, input) {
    const current = await tx.sale.findFirstOrThrow({ where: { id } });
    const relation = resolveRelation(current, input);
    await assertContactOfOrganization(tx, input, relation);
    await assertReasonNotBlocked(tx, input, current.reasonId);
    const statusChanged = input.statusId !== undefined && input.statusId !== current.statusId;
    await tx.sale.update({
      where: { id },
      data: { ...saleColumns(input, relation), ...(statusChanged ? { statusUpdatedAt: now } : {}), updatedAt: now },
    });
    await writeLinkedProjects(tx, id, input.linkedProjectIds, now);
    await writeCustomFields(sql, 'sale', id, input.customFields, 'update');
  },
};
