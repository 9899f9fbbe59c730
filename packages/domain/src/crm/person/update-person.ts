import { writeCustomFields } from '../../customfields/index.js';
import type { EntityUpdate } from '../../shared/entity/index.js';
import type { UpdatePersonInput } from './person.schema.js';
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

export const updatePerson: EntityUpdate<UpdatePersonInput> = {
  references: personReferences,
  async run({ tx, sql, now }, id, input) {
    const columns = personColumns(input);
    const current = await tx.person.findFirstOrThrow({ where: { id } });
    const names = {
      firstName: columns.firstName === undefined ? current.firstName : columns.firstName,
      familyNamePrefix: columns.familyNamePrefix === undefined ? current.familyNamePrefix : columns.familyNamePrefix,
      familyName: columns.familyName === undefined ? current.familyName : columns.familyName,
    };
    await tx.person.update({
      where: { id },
      data: { ...columns, genderId: await resolveGenderId(tx, input), fullName: fullName(names), updatedAt: now },
    });
    await writePersonAddress(tx, id, input.address);
    await writePersonInterests(tx, id, input.interests);
    await writeMailingLists(tx, id, input.mailingLists);
    await writeContactLinks(sql, id, input.contacts, now);
    await writeCustomFields(sql, 'person', id, input.customFields, 'update');
  },
};
