import { z } from 'zod';
import { writeSchemasOf } from '../../shared/entity/entity-write.js';
import { person } from './person.entity.js';

/**
 * Write shapes of a person: its declared fields (see person.entity.ts), and its gender, given by
 * id or by name.
 */
const gender = {
  genderId: z.string().min(1).nullable().optional(),
  /** the gender by its name, when no genderId is given */
  gender: z.enum(['Male', 'Female', 'Unknown']).nullable().optional(),
};
const writes = writeSchemasOf(person);

export const createPersonInput = writes.create.extend(gender);
export type CreatePersonInput = z.infer<typeof createPersonInput>;

export const updatePersonInput = writes.update.extend(gender);
export type UpdatePersonInput = z.infer<typeof updatePersonInput>;
