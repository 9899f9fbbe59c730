import { SCOPED_ENVIRONMENT } from '@bo/db';
import { ConflictError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { assertReferencesExist } from '../../shared/references.js';
import type { WriteContext } from '../../shared/resources/definition.js';
import type { CreateContactPersonInput } from './contactperson.schema.js';

export async function createContactPerson({ ctx, tx }: WriteContext, input: CreateContactPersonInput): Promise<string> {
  await assertReferencesExist(tx, ctx.principal.environmentId, [
    { path: 'organization_id', table: 'organization', id: input.organization_id },
    { path: 'person_id', table: 'person', id: input.person_id },
  ]);
  const existing = await tx.contactPerson.findFirst({
    where: { organizationId: input.organization_id, personId: input.person_id },
  });
  if (existing) throw new ConflictError(`the person is a contact of this organization already (${existing.id})`);
  const id = newEntityId('contactperson');
  await tx.contactPerson.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      organizationId: input.organization_id,
      personId: input.person_id,
      isActive: input.is_active ?? true,
      workFunction: input.work_function ?? null,
      workEmail: input.work_email ?? null,
      workPhone: input.work_phone ?? null,
      workMobile: input.work_mobile ?? null,
    },
  });
  return id;
}
