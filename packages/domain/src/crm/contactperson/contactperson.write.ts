import { SCOPED_ENVIRONMENT } from '@bo/db';
import { newEntityId } from '../../shared/ids.js';
import type { EntityTransaction as Db } from '../../shared/entity/transaction.js';

export interface ContactLinkValues {
  workFunction?: string | null;
  workEmail?: string | null;
  workPhone?: string | null;
  workMobile?: string | null;
}

/**
 * Links a person to an organization as a contact, or updates the existing link.
 * Both sides write links (an organization's contacts and a person's): one operation, one place.
 */
export async function upsertContactLink(
  tx: Db,
  link: { organizationId: string; personId: string } & ContactLinkValues,
  now: Date,
): Promise<void> {
  const values = {
    workFunction: link.workFunction,
    workEmail: link.workEmail,
    workPhone: link.workPhone,
    workMobile: link.workMobile,
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
