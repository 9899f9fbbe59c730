import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate } from '../../shared/entity/index.js';
import { ConflictError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateContactPersonInput } from './contactperson.schema.js';

/** Links a person to an organization; a second link of the same pair is refused. */
export const createContactPerson: EntityCreate<CreateContactPersonInput> = {
  async run({ tx }, input) {
    const existing = await tx.contactPerson.findFirst({
      where: { organizationId: input.organizationId, personId: input.personId },
    });
    if (existing) throw new ConflictError(`the person is a contact of this organization already (${existing.id})`);
    const id = newEntityId('contactperson');
    await tx.contactPerson.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        organizationId: input.organizationId,
        personId: input.personId,
        isActive: input.isActive ?? true,
        workFunction: input.workFunction ?? null,
        workEmail: input.workEmail ?? null,
        workPhone: input.workPhone ?? null,
        workMobile: input.workMobile ?? null,
      },
    });
    return id;
  },
};
