import { deleteCustomFieldValues } from '../customfields/index.js';
import type { EntityRemove } from '../shared/entity/index.js';

/** Deletes the sale (its project links follow by cascade) and its custom-field values, which have no foreign key to it. */
export const deleteSale: EntityRemove = async ({ tx, sql }, id) => {
  await deleteCustomFieldValues(sql, id);
  await tx.sale.delete({ where: { id } });
};
