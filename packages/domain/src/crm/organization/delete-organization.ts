import { deleteCustomFieldValues } from '../../customfields/index.js';
import type { EntityRemove } from '../../shared/entity/index.js';

/** Deletes the organization (addresses, interests and contact links follow by cascade) and its custom-field values. */
export const deleteOrganization: EntityRemove = async ({ sql }, id) => {
  await deleteCustomFieldValues(sql, id);
  await sql.deleteById('organization', id);
};
