import { writeCustomFields } from '../../customfields/index.js';
import type { EntityUpdate } from '../../shared/entity/index.js';
import type { UpdateOrganizationInput } from './organization.schema.js';
import {
  debtorSettings,
  organizationColumns,
  organizationReferences,
  writeAddress,
  writeLinkedContacts,
  writeOrganizationInterests,
} from './organization.write.js';

export const updateOrganization: EntityUpdate<UpdateOrganizationInput> = {
  references: organizationReferences,
  async run({ tx, now }, id, input) {
    const current = input.debtor ? await tx.organization.findFirst({ where: { id }, select: { debtorSettings: true } }) : null;
    const settings = debtorSettings(current?.debtorSettings, input.debtor);
    await tx.organization.update({
      where: { id },
      data: { ...organizationColumns(input), ...(settings ? { debtorSettings: settings as object } : {}), updatedAt: now },
    });
    await writeAddress(tx, id, 'visiting', input.visitingAddress);
    await writeAddress(tx, id, 'postal', input.postalAddress);
    await writeOrganizationInterests(tx, id, input.interests);
    await writeLinkedContacts(tx, id, input.contacts, now);
    await writeCustomFields(tx, 'organization', id, input.customFields, 'update');
  },
};
