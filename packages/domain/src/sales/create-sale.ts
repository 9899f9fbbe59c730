import { writeCustomFields } from '../customfields/index.js';
import type { EntityCreate } from '../shared/entity/index.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateSaleInput } from './sale.schema.js';
import { assertSaleRules, resolveRelation, saleColumns, saleReferences, writeLinkedProjects } from './sale.write.js';

/** A sale for an organization or a person, with its custom fields and linked projects. */
export const createSale: EntityCreate<CreateSaleInput> = {
  references: saleReferences,
  // the row, its project links, custom fields and event go through the transaction's reader, in a
  // transaction of our own: one round trip unless a contact or a reason is named (their rules are read first)
  async run({ sql, now }, input) {
    const relation = resolveRelation(null, input);
    await assertSaleRules(sql, input, relation, null);
    const id = newEntityId('sale');
    await sql.insert('sale', {
      ...saleColumns(input, relation),
      id,
      status_updated_at: input.statusId ? now : undefined,
      created_at: now,
      updated_at: now,
    });
    await writeLinkedProjects(sql, id, input.linkedProjectIds, now);
    await writeCustomFields(sql, 'sale', id, input.customFields, 'create');
    return id;
  },
};
