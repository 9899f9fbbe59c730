import { SCOPED_ENVIRONMENT } from '@bo/db';
import { newEntityId } from '../../shared/ids.js';
import type { WriteContext } from '../../shared/resources/definition.js';
import type { CreateMyOrganizationProfileInput } from './myorganizationprofile.schema.js';
import { assertProfileReferences, keepOneMainProfile, profileColumns } from './myorganizationprofile.write.js';

export async function createMyOrganizationProfile({ ctx, tx, now }: WriteContext, input: CreateMyOrganizationProfileInput) {
  await assertProfileReferences(tx, ctx.principal.environmentId, input);
  const id = newEntityId('myorganizationprofile');
  await tx.myOrganizationProfile.create({
    data: { ...profileColumns(input), id, name: input.name, environmentId: SCOPED_ENVIRONMENT },
  });
  await keepOneMainProfile(tx, id, input, now);
  return id;
}
