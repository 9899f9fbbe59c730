import type { EntityUpdate } from '../../shared/entity/index.js';
import type { UpdateMyOrganizationProfileInput } from './myorganizationprofile.schema.js';
import { keepOneMainProfile, profileColumns } from './myorganizationprofile.write.js';

export const updateMyOrganizationProfile: EntityUpdate<UpdateMyOrganizationProfileInput> = {
  async run({ tx, now }, id, input) {
    await tx.myOrganizationProfile.update({ where: { id }, data: { ...profileColumns(input), updatedAt: now } });
    await keepOneMainProfile(tx, id, input, now);
  },
};
