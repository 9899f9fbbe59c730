import type { EntityCreate } from '../../shared/entity/index.js';
import { columnsOfWrite } from '../../shared/entity/entity-write.js';
import { newEntityId } from '../../shared/ids.js';
import { myOrganizationProfile } from './myorganizationprofile.entity.js';
import type { CreateMyOrganizationProfileInput } from './myorganizationprofile.schema.js';

/** A company profile: its declared columns in one INSERT (the one main profile is kept by the generic write). */
export const createMyOrganizationProfile: EntityCreate<CreateMyOrganizationProfileInput> = {
  async run({ sql, now }, input) {
    const id = newEntityId('myorganizationprofile');
    await sql.insert(myOrganizationProfile.table, { ...columnsOfWrite(myOrganizationProfile, input), id, updated_at: now });
    return id;
  },
};
