import type { EntityUpdate } from '../../shared/entity/index.js';
import type { UpdateContactPersonInput } from './contactperson.schema.js';

export const updateContactPerson: EntityUpdate<UpdateContactPersonInput> = {
  async run({ tx, now }, id, input) {
    await tx.contactPerson.update({
      where: { id },
      data: {
        personId: input.personId,
        isActive: input.isActive,
        workFunction: input.workFunction,
        workEmail: input.workEmail,
        workPhone: input.workPhone,
        workMobile: input.workMobile,
        updatedAt: now,
      },
    });
  },
};
