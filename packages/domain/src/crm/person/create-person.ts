import { SCOPED_ENVIRONMENT } from '@bo/db';
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
  async run({ tx, sql, now }, input) {
    const id = newEntityId('person');
    const columns = personColumns(input);
    await tx.person.create({
      data: {
        ...columns,
        id,
        environmentId: SCOPED_ENVIRONMENT,
        familyName: input.familyName,
        fullName: fullName(columns),
        genderId: (await resolveGenderId(tx, input)) ?? null,
      },
    });
    await writePersonAddress(tx, id, input.address);
    await writePersonInterests(tx, id, input.interests);
    await writeMailingLists(tx, id, input.mailingLists);
    await writeContactLinks(sql, id, input.contacts, now);
    await writeCustomFields(sql, 'person', id, input.customFields, 'create');
    return id;
  },
};
