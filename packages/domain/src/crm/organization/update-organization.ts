import type { WriteContext } from '../../shared/resources/definition.js';
import type { UpdateOrganizationInput } from './organization.schema.js';
import { assertOrganizationReferences, organizationColumns, writeAddress } from './organization.write.js';

export async function updateOrganization({ ctx, tx, now }: WriteContext, id: string, input: UpdateOrganizationInput) {
  await assertOrganizationReferences(tx, ctx.principal.environmentId, input);
  await tx.organization.update({ where: { id }, data: { ...organizationColumns(input), updatedAt: now } });
  await writeAddress(tx, id, 'visiting', input.visiting_address);
  await writeAddress(tx, id, 'postal', input.postal_address);
}
