import type { Models } from '@bo/db';
import type { ResourceDefinition } from '../../shared/resources/definition.js';
import { referenceResource } from '../../shared/resources/reference-resource.js';
import { createMyOrganizationProfile } from './create-myorganizationprofile.js';
import { myOrganizationProfileSql } from './myorganization.sql.js';
import {
  type CreateMyOrganizationProfileInput,
  createMyOrganizationProfileSchema,
  type UpdateMyOrganizationProfileInput,
  updateMyOrganizationProfileSchema,
} from './myorganizationprofile.schema.js';
import { updateMyOrganizationProfile } from './update-myorganizationprofile.js';

type ProfileRow = Models.MyOrganizationProfileModel;

/** reference: MyOrganizationProfile, plus main_profile */
export function profileView(p: ProfileRow) {
  return {
    id: p.id,
    organization_id: p.organizationId,
    name: p.name,
    coc_code: p.cocCode,
    vat_number: p.vatNumber,
    bank_account: p.bankAccount,
    blocked: p.blocked,
    main_profile: p.mainProfile,
  };
}

const load = (db: Parameters<ResourceDefinition['load']>[0], ids: string[]) =>
  db.myOrganizationProfile.findMany({ where: { id: { in: ids } } });

/** crm/myorganizationprofile: every company profile of the environment. */
export const myOrganizationProfileResource: ResourceDefinition<
  ProfileRow,
  CreateMyOrganizationProfileInput,
  UpdateMyOrganizationProfileInput
> = {
  name: 'crm/myorganizationprofile',
  entityType: 'myorganizationprofile',
  module: 'crm',
  sql: myOrganizationProfileSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load,
  views: { v2: profileView, v3: profileView },
  create: { schema: createMyOrganizationProfileSchema, run: createMyOrganizationProfile },
  update: { schema: updateMyOrganizationProfileSchema, run: updateMyOrganizationProfile },
};

/**
 * crm/myorganization: only the company profiles the user may use (2024-10): the
 * ones granted to the user, and the ones granted to nobody (open to all).
 */
export const myOrganizationResource: ResourceDefinition<ProfileRow> = {
  ...referenceResource({
    name: 'crm/myorganization',
    entityType: 'myorganizationprofile',
    module: 'crm',
    sql: myOrganizationProfileSql,
    defaultSort: [{ path: 'created_at', dir: 'asc' }],
    load,
    view: profileView,
  }),
  scope: (ctx) => ({
    or: [
      { path: 'access.user_id', op: 'eq', value: ctx.principal.userId },
      { path: 'access', op: 'eq', value: 'null' },
    ],
  }),
};
