import { defineEntity, f } from '../../shared/entity/index.js';

/** A company profile of the environment's own organization, as other entities refer to it. */
export const myOrganizationProfileTarget = defineEntity({
  type: 'myorganizationprofile',
  table: 'my_organization_profile',
  module: 'crm',
  fields: { id: f.id(), name: f.string(), createdAt: f.createdAt(), updatedAt: f.updatedAt() },
});
