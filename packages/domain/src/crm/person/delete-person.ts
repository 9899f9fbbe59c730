import { deleteCustomFieldValues } from '../../customfields/index.js';
import type { WriteContext } from '../../shared/resources/definition.js';

/** Deletes the person (links, address and contact rows follow by cascade) and its custom-field values. */
export async function deletePerson({ tx }: WriteContext, id: string) {
  await deleteCustomFieldValues(tx, id);
  await tx.person.delete({ where: { id } });
}
