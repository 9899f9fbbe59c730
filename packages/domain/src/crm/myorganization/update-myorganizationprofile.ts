import type { EntityUpdate } from '../../shared/entity/index.js';
import { columnsOfWrite } from '../../shared/entity/entity-write.js';
import { myOrganizationProfile } from './myorganizationprofile.entity.js';
import type { UpdateMyOrganizationProfileInput } from './myorganizationprofile.schema.js';

/** The named columns of a company profile, in one UPDATE. */
export const updateMyOrganizationProfile: EntityUpdate<UpdateMyOrganizationProfileInput> = {
  async run({ sql, now }, id, input) {
    await sql.update(myOrganizationProfile.table, id, { ...columnsOfWrite(myOrganizationProfile, input), updated_at: now });
  },
};
