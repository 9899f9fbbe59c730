import { entityCreate, entityDelete, entityQueries, entityUpdate } from '../../shared/entity/index.js';
import { router } from '../../trpc.js';
import { createOrganization } from './create-organization.js';
import { deleteOrganization } from './delete-organization.js';
import { organization } from './organization.entity.js';
import { createOrganizationInput, updateOrganizationInput } from './organization.schema.js';
import { updateOrganization } from './update-organization.js';

/** Organizations: the queries derived from the entity, and its create, update and delete. */
export const organizationRouter = router({
  ...entityQueries(organization),
  create: entityCreate(organization, createOrganizationInput, createOrganization),
  update: entityUpdate(organization, updateOrganizationInput, updateOrganization),
  delete: entityDelete(organization, deleteOrganization),
});
