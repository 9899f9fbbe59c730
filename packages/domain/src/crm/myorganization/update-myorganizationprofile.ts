import type { WriteContext } from '../../shared/resources/definition.js';
import type { UpdateMyOrganizationProfileInput } from './myorganizationprofile.schema.js';
import { assertProfileReferences, keepOneMainProfile, profileColumns } from './myorganizationprofile.write.js';

export async function updateMyOrganizationProfile(
  { ctx, tx, now }: WriteContext,
  id: string,
  input: UpdateMyOrganizationProfileInput,
) {
  await assertProfileReferences(tx, ctx.principal.environmentId, input);
  await tx.myOrganizationProfile.update({ where: { id }, data: { ...profileColumns(input), updatedAt: now } });
  await keepOneMainProfile(tx, id, input, now);
}
