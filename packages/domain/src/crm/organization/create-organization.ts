import { SCOPED_ENVIRONMENT } from '@bo/db';
import { newEntityId } from '../../shared/ids.js';
import type { WriteContext } from '../../shared/resources/definition.js';
import type { CreateOrganizationInput } from './organization.schema.js';
import { assertOrganizationReferences, organizationColumns, writeAddress } from './organization.write.js';

export async function createOrganization({ ctx, tx }: WriteContext, input: CreateOrganizationInput): Promise<string> {
  await assertOrganizationReferences(tx, ctx.principal.environmentId, input);
  const id = newEntityId('organization');
  await tx.organization.create({
    data: { ...organizationColumns(input), id, name: input.name, environmentId: SCOPED_ENVIRONMENT },
  });
  await writeAddress(tx, id, 'visiting', input.visiting_address);
  await writeAddress(tx, id, 'postal', input.postal_address);
  return id;
}
