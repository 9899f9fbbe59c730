import { deleteCustomFieldValues } from '../customfields/index.js';
import type { EntityRemove, SqlWriteContext } from '../shared/entity/index.js';

/** Deletes the sale (its project links follow by cascade) and its custom-field values, which have no foreign key to it. */
export const deleteSale: EntityRemove = async ({ sql }: SqlWriteContext, id: string) => {
  await deleteCustomFieldValues(sql, id);
  await sql.deleteById('sale', id);
};
