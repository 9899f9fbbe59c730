import { writeCustomFields } from '../../customfields/index.js';
import type { WriteContext } from '../../shared/resources/definition.js';
import type { UpdatePersonInput } from './person.schema.js';
import {
  assertPersonReferences,
  fullName,
  personColumns,
  resolveGenderId,
  writeContactLinks,
  writeMailingLists,
  writePersonAddress,
  writePersonInterests,
} from './person.write.js';

export async function updatePerson({ ctx, tx, now }: WriteContext, id: string, input: UpdatePersonInput) {
  await assertPersonReferences(tx, ctx.principal.environmentId, input);
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
  await writeMailingLists(tx, id, input.mailing_lists);
  await writeContactLinks(tx, id, input.linked_as_contact_to_organization, now);
  await writeCustomFields(tx, 'person', id, input.custom_fields, 'update');
}
