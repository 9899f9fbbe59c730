import { SCOPED_ENVIRONMENT } from '@bo/db';
import { writeCustomFields } from '../../customfields/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { WriteContext } from '../../shared/resources/definition.js';
import type { CreateOrganizationInput } from './organization.schema.js';
import {
  assertOrganizationReferences,
  debtorSettings,
  organizationColumns,
  writeAddress,
  writeLinkedContacts,
  writeOrganizationInterests,
} from './organization.write.js';

export async function createOrganization({ ctx, tx, now }: WriteContext, input: CreateOrganizationInput): Promise<string> {
  await assertOrganizationReferences(tx, ctx.principal.environmentId, input);
  const id = newEntityId('organization');
  const settings = debtorSettings(null, input.debtor);
  await tx.organization.create({
    data: {
      ...organizationColumns(input),
      id,
      name: input.name,
      environmentId: SCOPED_ENVIRONMENT,
      ...(settings ? { debtorSettings: settings as object } : {}),
    },
  });
  await writeAddress(tx, id, 'visiting', input.visiting_address);
  await writeAddress(tx, id, 'postal', input.postal_address);
  await writeOrganizationInterests(tx, id, input.interests);
  await writeLinkedContacts(tx, id, input.linked_persons_contacts, now);
  await writeCustomFields(tx, 'organization', id, input.custom_fields, 'create');
  return id;
}
