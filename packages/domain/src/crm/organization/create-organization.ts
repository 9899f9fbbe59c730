import { SCOPED_ENVIRONMENT } from '@bo/db';
import { writeCustomFields } from '../../customfields/index.js';
import type { EntityCreate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateOrganizationInput } from './organization.schema.js';
import {
  debtorSettings,
  organizationColumns,
  organizationReferences,
  writeAddress,
  writeLinkedContacts,
  writeOrganizationInterests,
} from './organization.write.js';

export const createOrganization: EntityCreate<CreateOrganizationInput> = {
  references: organizationReferences,
  async run({ tx, now }, input) {
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
    await writeAddress(tx, id, 'visiting', input.visitingAddress);
    await writeAddress(tx, id, 'postal', input.postalAddress);
    await writeOrganizationInterests(tx, id, input.interests);
    await writeLinkedContacts(tx, id, input.contacts, now);
    await writeCustomFields(tx, 'organization', id, input.customFields, 'create');
    return id;
  },
};
