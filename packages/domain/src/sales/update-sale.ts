import { writeCustomFields } from '../customfields/index.js';
import type { EntityUpdate } from '../shared/entity/index.js';
import type { UpdateSaleInput } from './sale.schema.js';
import { assertSaleRules, resolveRelation, saleColumns, saleReferences, writeLinkedProjects } from './sale.write.js';

interface CurrentSale {
  organizationId: string | null;
  personId: string | null;
  contactId: string | null;
  reasonId: string | null;
  statusId: string | null;
}

/**
 * Changes the fields a write names. personId or organizationId switches the relation
 * (2023-06); divergentPaymentTermId names a payment term (2026-03); linkedProjectIds, when
 * given, replaces the set.
 */
export const updateSale: EntityUpdate<UpdateSaleInput> = {
  references: saleReferences,
  async run({ sql, now }, id, input) {
    // the row is locked by the generic update: what it holds now is what this write changes
    const [current] = await sql.read<CurrentSale>(
      `SELECT organization_id AS "organizationId", person_id AS "personId", contact_id AS "contactId",
              reason_id AS "reasonId", status_id AS "statusId"
         FROM sale WHERE environment_id = $1 AND id = $2`,
      [id],
      { stablePlan: true },
    );
    const relation = resolveRelation(current ?? null, input);
    await assertSaleRules(sql, input, relation, current?.reasonId ?? null);
    const statusChanged = input.statusId !== undefined && input.statusId !== current?.statusId;
    await sql.update('sale', id, {
      ...saleColumns(input, relation),
      status_updated_at: statusChanged ? now : undefined,
      updated_at: now,
    });
    await writeLinkedProjects(sql, id, input.linkedProjectIds, now);
    await writeCustomFields(sql, 'sale', id, input.customFields, 'update');
  },
};
