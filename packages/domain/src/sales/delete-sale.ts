import { deleteCustomFieldValues } from '../customfields/index.js';
import type { WriteContext } from '../shared/resources/definition.js';

/** Deletes the sale (its project links follow by cascade) and its custom-field values, which have no foreign key to it. */
export async function deleteSale({ tx }: WriteContext, id: string): Promise<void> {
  await deleteCustomFieldValues(tx, id);
  await tx.sale.delete({ where: { id } });
}
