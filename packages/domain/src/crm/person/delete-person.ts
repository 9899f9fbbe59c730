import { deleteCustomFieldValues } from '../../customfields/index.js';
import type { EntityRemove } from '../../shared/entity/index.js';

/** Deletes the person (links, address and contact rows follow by cascade) and its custom-field values. */
export const deletePerson: EntityRemove = async ({ sql }, id) => {
  await deleteCustomFieldValues(sql, id);
  await sql.deleteById('person', id);
};
