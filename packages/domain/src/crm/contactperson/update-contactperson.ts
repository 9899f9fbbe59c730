import { assertReferencesExist } from '../../shared/references.js';
import type { WriteContext } from '../../shared/resources/definition.js';
import type { UpdateContactPersonInput } from './contactperson.schema.js';

export async function updateContactPerson({ ctx, tx, now }: WriteContext, id: string, input: UpdateContactPersonInput) {
  await assertReferencesExist(tx, ctx.principal.environmentId, [{ path: 'person_id', table: 'person', id: input.person_id }]);
  await tx.contactPerson.update({
    where: { id },
    data: {
      personId: input.person_id,
      isActive: input.is_active,
      workFunction: input.work_function,
      workEmail: input.work_email,
      workPhone: input.work_phone,
      workMobile: input.work_mobile,
      updatedAt: now,
    },
  });
}
