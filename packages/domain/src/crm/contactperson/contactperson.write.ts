import { SCOPED_ENVIRONMENT } from '@bo/db';
import { newEntityId } from '../../shared/ids.js';
import type { EntityTransaction as Db } from '../../shared/entity/transaction.js';

export interface ContactLinkValues {
  work_function?: string | null;
  work_email?: string | null;
  work_phone?: string | null;
  work_mobile?: string | null;
}

/**
 * Links a person to an organization as a contact, or updates the existing link.
 * Both sides write links (organization.linked_persons_contacts and
 * person.linked_as_contact_to_organization): one operation, one place.
 */
export async function upsertContactLink(
  tx: Db,
  link: { organizationId: string; personId: string } & ContactLinkValues,
  now: Date,
): Promise<void> {
  const values = {
    workFunction: link.work_function,
    workEmail: link.work_email,
    workPhone: link.work_phone,
    workMobile: link.work_mobile,
  };
  await tx.contactPerson.upsert({
    where: { organizationId_personId: { organizationId: link.organizationId, personId: link.personId } },
    create: {
      id: newEntityId('contactperson'),
      environmentId: SCOPED_ENVIRONMENT,
      organizationId: link.organizationId,
      personId: link.personId,
      ...values,
    },
    update: { ...values, updatedAt: now },
  });
}
