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
  // as the create: through the transaction's reader, in a transaction of our own
  async run({ sql, now }, id, input) {
    // the named columns and updated_at (as Prisma's @updatedAt would), one statement queued
    await sql.update('organization', id, { ...organizationColumns(input), updated_at: now });
    const settings = debtorSettings({}, input.debtor);
    if (settings) {
      // the debtor settings named replace theirs, the others stay: a merge of JSON objects in place
      await sql.queue(
        `UPDATE organization SET debtor_settings = COALESCE(debtor_settings, '{}'::jsonb) || $3::jsonb
          WHERE environment_id = $1 AND id = $2`,
        [id, JSON.stringify(settings)],
        { stablePlan: true },
      );
    }
    await writeAddress(sql, id, 'visiting', input.visitingAddress);
    await writeAddress(sql, id, 'postal', input.postalAddress);
    await writeOrganizationInterests(sql, id, input.interests);
    await writeLinkedContacts(sql, id, input.contacts, now);
    await writeCustomFields(sql, 'organization', id, input.customFields, 'update');
  },
};
