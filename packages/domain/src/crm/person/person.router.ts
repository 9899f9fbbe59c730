import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../../shared/entity/index.js';
import { router } from '../../trpc.js';
import { createPerson } from './create-person.js';
import { deletePerson } from './delete-person.js';
import { person } from './person.entity.js';
import { createPersonInput, updatePersonInput } from './person.schema.js';
import { updatePerson } from './update-person.js';

/** Persons: the queries derived from the entity, and their create, update and delete. */
export const personRouter = router({
  ...entityQueries(person),
  create: entityCreate(person, createPersonInput, createPerson),
  update: entityUpdate(person, updatePersonInput, updatePerson),
  delete: entityDelete(person, deletePerson),
});
