import { SCOPED_ENVIRONMENT } from '@bo/db';
import { writeCustomFields } from '../customfields/index.js';
import { newEntityId } from '../shared/ids.js';
import type { WriteContext } from '../shared/resources/definition.js';
import type { CreateSaleInput } from './sale.schema.js';
import { assertSaleReferences, resolveRelation, saleColumns, writeLinkedProjects } from './sale.write.js';

/** POST sales/sales: a sale for an organization or a person, with its custom fields and linked projects. */
export async function createSale({ ctx, tx, now }: WriteContext, input: CreateSaleInput): Promise<string> {
  const relation = resolveRelation(null, input);
  await assertSaleReferences(tx, ctx.principal.environmentId, input, relation);
  const id = newEntityId('sale');
  await tx.sale.create({
    data: {
      ...saleColumns(input, relation),
      subject: input.subject,
      id,
      environmentId: SCOPED_ENVIRONMENT,
      createdAt: now,
      updatedAt: now,
    },
  });
  await writeLinkedProjects(tx, id, input.linked_project_ids, now);
  await writeCustomFields(tx, 'sale', id, input.custom_fields, 'create');
  return id;
}
