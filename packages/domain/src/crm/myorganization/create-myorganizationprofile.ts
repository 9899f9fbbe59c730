import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateMyOrganizationProfileInput } from './myorganizationprofile.schema.js';
import { keepOneMainProfile, profileColumns } from './myorganizationprofile.write.js';

export const createMyOrganizationProfile: EntityCreate<CreateMyOrganizationProfileInput> = {
  async run({ tx, now }, input) {
    const id = newEntityId('myorganizationprofile');
    await tx.myOrganizationProfile.create({
      data: { ...profileColumns(input), id, name: input.name, environmentId: SCOPED_ENVIRONMENT },
    });
    await keepOneMainProfile(tx, id, input, now);
    return id;
  },
};
