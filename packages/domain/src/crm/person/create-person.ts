import { SCOPED_ENVIRONMENT } from '@bo/db';
import { writeCustomFields } from '../../customfields/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { WriteContext } from '../../shared/resources/definition.js';
import type { CreatePersonInput } from './person.schema.js';
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

export async function createPerson({ ctx, tx, now }: WriteContext, input: CreatePersonInput): Promise<string> {
  await assertPersonReferences(tx, ctx.principal.environmentId, input);
  const id = newEntityId('person');
  const columns = personColumns(input);
  await tx.person.create({
    data: {
      ...columns,
      id,
      environmentId: SCOPED_ENVIRONMENT,
      familyName: input.family_name,
      fullName: fullName(columns),
      genderId: (await resolveGenderId(tx, input)) ?? null,
    },
  });
  await writePersonAddress(tx, id, input.address);
  await writePersonInterests(tx, id, input.interests);
  await writeMailingLists(tx, id, input.mailing_lists);
  await writeContactLinks(tx, id, input.linked_as_contact_to_organization, now);
  await writeCustomFields(tx, 'person', id, input.custom_fields, 'create');
  return id;
}
