import type { z } from 'zod';
import { writeSchemasOf } from '../../shared/entity/entity-write.js';
import { myOrganizationProfile } from './myorganizationprofile.entity.js';

/** Write shapes of a company profile: its declared fields (see myorganizationprofile.entity.ts). */
const writes = writeSchemasOf(myOrganizationProfile);

export const createMyOrganizationProfileInput = writes.create;
export type CreateMyOrganizationProfileInput = z.infer<typeof createMyOrganizationProfileInput>;

export const updateMyOrganizationProfileInput = writes.update;
export type UpdateMyOrganizationProfileInput = z.infer<typeof updateMyOrganizationProfileInput>;
