import { writeCustomFields } from '../customfields/index.js';
import type { WriteContext } from '../shared/resources/definition.js';
import type { UpdateSaleInput } from './sale.schema.js';
import { assertSaleReferences, resolveRelation, saleColumns, writeLinkedProjects } from './sale.write.js';

/**
 * PUT sales/sales/{id}: changes the fields it names. person_id or organization_id
 * switches the relation (2023-06); divergent_payment_term_id is stored (2026-03);
 * linked_project_ids, when given, replaces the set.
 */
export async function updateSale({ ctx, tx, now }: WriteContext, id: string, input: UpdateSaleInput): Promise<void> {
  const current = await tx.sale.findFirstOrThrow({ where: { id } });
  const relation = resolveRelation(current, input);
  await assertSaleReferences(tx, ctx.principal.environmentId, input, relation);
  await tx.sale.update({ where: { id }, data: { ...saleColumns(input, relation), updatedAt: now } });
  await writeLinkedProjects(tx, id, input.linked_project_ids, now);
  await writeCustomFields(tx, 'sale', id, input.custom_fields, 'update');
}
