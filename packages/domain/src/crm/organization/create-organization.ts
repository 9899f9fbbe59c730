import { writeCustomFields } from '../../customfields/index.js';
import type { EntityCreate } from '../../shared/entity/index.js';
import { columnsOf } from '../../shared/entity/columns.js';
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
  // the row, its addresses, interests, custom fields and event go through the transaction's reader;
  // linking contacts (shared with the contact person's writes) still takes Prisma's transaction
  sqlOnly: (input) => !input.contacts?.length,
  async run({ tx, sql, now }, input) {
    const id = newEntityId('organization');
    const settings = debtorSettings(null, input.debtor);
    // one INSERT on the transaction's connection (Prisma's create cost about 0.5 ms of Node CPU
    // more); the columns left out take their defaults, updated_at is set as Prisma's @updatedAt would
    await sql.insert('organization', {
      ...columnsOf(organizationColumns(input)),
      id,
      name: input.name,
      debtor_settings: settings ? JSON.stringify(settings) : undefined,
      updated_at: new Date(),
    });
    await writeAddress(tx, id, 'visiting', input.visitingAddress);
    await writeAddress(tx, id, 'postal', input.postalAddress);
    await writeOrganizationInterests(tx, id, input.interests);
    await writeLinkedContacts(tx, id, input.contacts, now);
    await writeCustomFields(tx, 'organization', id, input.customFields, 'create');
    return id;
  },
};
