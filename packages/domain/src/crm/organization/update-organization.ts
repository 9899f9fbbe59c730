import { writeCustomFields } from '../../customfields/index.js';
import type { WriteContext } from '../../shared/resources/definition.js';
import type { UpdateOrganizationInput } from './organization.schema.js';
import {
  assertOrganizationReferences,
  debtorSettings,
  organizationColumns,
  writeAddress,
  writeLinkedContacts,
  writeOrganizationInterests,
} from './organization.write.js';

export async function updateOrganization({ ctx, tx, now }: WriteContext, id: string, input: UpdateOrganizationInput) {
  await assertOrganizationReferences(tx, ctx.principal.environmentId, input);
  const current = input.debtor ? await tx.organization.findFirst({ where: { id }, select: { debtorSettings: true } }) : null;
  const settings = debtorSettings(current?.debtorSettings, input.debtor);
  await tx.organization.update({
    where: { id },
    data: { ...organizationColumns(input), ...(settings ? { debtorSettings: settings as object } : {}), updatedAt: now },
  });
  await writeAddress(tx, id, 'visiting', input.visiting_address);
  await writeAddress(tx, id, 'postal', input.postal_address);
  await writeOrganizationInterests(tx, id, input.interests);
  await writeLinkedContacts(tx, id, input.linked_persons_contacts, now);
  await writeCustomFields(tx, 'organization', id, input.custom_fields, 'update');
}
