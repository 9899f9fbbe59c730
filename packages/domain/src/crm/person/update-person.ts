import { writeCustomFields } from '../../customfields/index.js';
import type { EntityUpdate } from '../../shared/entity/index.js';
import type { UpdatePersonInput } from './person.schema.js';
import {
  personColumns,
  personReferences,
  resolveGenderId,
  writeContactLinks,
  writeFullName,
  writeMailingLists,
  writePersonAddress,
  writePersonInterests,
} from './person.write.js';

export const updatePerson: EntityUpdate<UpdatePersonInput> = {
  references: personReferences,
  // as the create: through the transaction's reader, in a transaction of our own
  async run({ sql, now }, id, input) {
    // the named columns and updated_at (as Prisma's @updatedAt would), one statement queued; the
    // full name follows from the names as stored after it, without reading them into the process
    await sql.update('person', id, { ...personColumns(input), gender_id: await resolveGenderId(sql, input), updated_at: now });
    await writeFullName(sql, id);
    await writePersonAddress(sql, id, input.address);
    await writePersonInterests(sql, id, input.interests);
    await writeMailingLists(sql, id, input.mailingLists);
    await writeContactLinks(sql, id, input.contacts, now);
    await writeCustomFields(sql, 'person', id, input.customFields, 'update');
  },
};
