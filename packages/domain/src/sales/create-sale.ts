import { SCOPED_ENVIRONMENT } from '@bo/db';
import { writeCustomFields } from '../customfields/index.js';
import type { EntityCreate } from '../shared/entity/index.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateSaleInput } from './sale.schema.js';
import {
  assertContactOfOrganization,
  assertReasonNotBlocked,
  resolveRelation,
  saleColumns,
  saleReferences,
  writeLinkedProjects,
} from './sale.write.js';

/** A sale for an organization or a person, with its custom fields and linked projects. */
export const createSale: EntityCreate<CreateSaleInput> = {
  references: saleReferences,
  async run({ tx, sql, now }, input) {
    const relation = resolveRelation(null, input);
    await assertContactOfOrganization(tx, input, relation);
    await assertReasonNotBlocked(tx, input, null);
    const id = newEntityId('sale');
    await tx.sale.create({
      data: {
        ...saleColumns(input, relation),
        subject: input.subject,
        id,
        environmentId: SCOPED_ENVIRONMENT,
        ...(input.statusId ? { statusUpdatedAt: now } : {}),
        createdAt: now,
        updatedAt: now,
      },
    });
    await writeLinkedProjects(tx, id, input.linkedProjectIds, now);
    await writeCustomFields(sql, 'sale', id, input.customFields, 'create');
    return id;
  },
};
