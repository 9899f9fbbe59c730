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
  // the row, its addresses, interests, contact links, custom fields and event go through the
  // transaction's reader: a transaction of our own, sent with its COMMIT in one round trip
  async run({ sql, now }, input) {
    const id = newEntityId('organization');
    const settings = debtorSettings(null, input.debtor);
    // one INSERT on the transaction's connection, queued with the rest of the write; the columns left out take their defaults, updated_at is set as Prisma's @updatedAt would
    await sql.insert('organization', {
      ...organizationColumns(input),
      id,
      debtor_settings: settings ? JSON.stringify(settings) : undefined,
      updated_at: now,
    });
    await writeAddress(sql, id, 'visiting', input.visitingAddress);
    await writeAddress(sql, id, 'postal', input.postalAddress);
    await writeOrganizationInterests(sql, id, input.interests);
    await writeLinkedContacts(sql, id, input.contacts, now);
    await writeCustomFields(sql, 'organization', id, input.customFields, 'create');
    return id;
  },
};
