import { writeCustomFields } from '../../customfields/index.js';
import type { EntityCreate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreatePersonInput } from './person.schema.js';
import {
  fullName,
  personColumns,
  personReferences,
  resolveGenderId,
  writeContactLinks,
  writeMailingLists,
  writePersonAddress,
  writePersonInterests,
} from './person.write.js';

export const createPerson: EntityCreate<CreatePersonInput> = {
  references: personReferences,
  // the row, its address, interests, lists, contact links, custom fields and event go through the
  // transaction's reader: a transaction of our own, sent with its COMMIT in one round trip (a gender
  // named by its name is read first)
  async run({ sql, now }, input) {
    const id = newEntityId('person');
    // the columns left out take their defaults; updated_at is set as Prisma's @updatedAt would
    await sql.insert('person', {
      ...personColumns(input),
      id,
      full_name: fullName(input),
      gender_id: (await resolveGenderId(sql, input)) ?? null,
      updated_at: now,
    });
    await writePersonAddress(sql, id, input.address);
    await writePersonInterests(sql, id, input.interests);
    await writeMailingLists(sql, id, input.mailingLists);
    await writeContactLinks(sql, id, input.contacts, now);
    await writeCustomFields(sql, 'person', id, input.customFields, 'create');
    return id;
  },
};
