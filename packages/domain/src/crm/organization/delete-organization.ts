import { deleteCustomFieldValues } from '../../customfields/index.js';
import type { WriteContext } from '../../shared/resources/definition.js';

/** Deletes the organization (addresses, interests and contact links follow by cascade) and its custom-field values. */
export async function deleteOrganization({ tx }: WriteContext, id: string) {
  await deleteCustomFieldValues(tx, id);
  await tx.organization.delete({ where: { id } });
}
