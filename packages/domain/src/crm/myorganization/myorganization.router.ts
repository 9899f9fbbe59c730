import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../../shared/entity/index.js';
import { router } from '../../trpc.js';
import { createMyOrganizationProfile } from './create-myorganizationprofile.js';
import { myOrganization, myOrganizationProfile } from './myorganizationprofile.entity.js';
import { createMyOrganizationProfileInput, updateMyOrganizationProfileInput } from './myorganizationprofile.schema.js';
import { updateMyOrganizationProfile } from './update-myorganizationprofile.js';

/** Every company profile of the environment, with its writes. */
export const myOrganizationProfileRouter = router({
  ...entityQueries(myOrganizationProfile),
  create: entityCreate(myOrganizationProfile, createMyOrganizationProfileInput, createMyOrganizationProfile),
  update: entityUpdate(myOrganizationProfile, updateMyOrganizationProfileInput, updateMyOrganizationProfile),
  delete: entityDelete(myOrganizationProfile),
});

/** Only the company profiles the user may use; read-only. */
export const myOrganizationRouter = router(entityQueries(myOrganization));
