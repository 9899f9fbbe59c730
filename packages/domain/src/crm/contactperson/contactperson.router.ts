import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../../shared/entity/index.js';
import { router } from '../../trpc.js';
import { contactPerson } from './contactperson.entity.js';
import { createContactPersonInput, updateContactPersonInput } from './contactperson.schema.js';
import { createContactPerson } from './create-contactperson.js';
import { updateContactPerson } from './update-contactperson.js';

/** Contact links: the queries derived from the entity, and their create, update and delete. */
export const contactPersonRouter = router({
  ...entityQueries(contactPerson),
  create: entityCreate(contactPerson, createContactPersonInput, createContactPerson),
  update: entityUpdate(contactPerson, updateContactPersonInput, updateContactPerson),
  delete: entityDelete(contactPerson),
});
