import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { organization } from '../organization/organization.entity.js';
import { targets } from '../../shared/entity/targets.js';

/** Which users may use a company profile; a profile without rows is open to every user. */
export const myOrganizationProfileAccess = defineEntity({
  type: 'myorganizationprofileaccess',
  table: 'my_organization_profile_access',
  module: 'crm',
  fields: { id: f.id({ column: 'profile_id' }), userId: f.requiredString({ references: () => targets.user }) },
});

const profileFields = {
  id: f.id(),
  /** the organization record of the company itself, when one is kept */
  organization: f.ref((): TargetEntity => organization, z.object({ id: z.string(), name: z.string() }), {
    column: 'organization_id',
    writeAs: 'id',
  }),
  name: f.string({ required: true }),
  cocCode: f.string(),
  vatNumber: f.string(),
  bankAccount: f.string(),
  blocked: f.boolean(),
  /** the company's main profile: one at most, setting it on one clears it on the others */
  mainProfile: f.boolean({ exclusive: true }),
  access: f.many(() => myOrganizationProfileAccess, z.object({ userId: z.string() }), {
    remote: 'profile_id',
    writable: false,
    orderBy: (a) => `${a}.user_id`,
  }),
  createdAt: f.createdAt(),
  updatedAt: f.updatedAt(),
};

/** A company profile of the environment: the company's own name, registration and bank details. */
export const myOrganizationProfile = defineEntity({
  type: 'myorganizationprofile',
  table: 'my_organization_profile',
  module: 'crm',
  fields: profileFields,
});

/**
 * The company profiles the user may use (2024-10): the ones granted to the user,
 * and the ones granted to nobody (open to all).
 */
export const myOrganization = defineEntity({
  type: 'myorganizationprofile',
  table: 'my_organization_profile',
  module: 'crm',
  fields: profileFields,
  scope: (ctx) => ({
    or: [
      { path: 'access.userId', op: 'eq', value: ctx.principal.userId },
      { path: 'access', op: 'eq', value: 'null' },
    ],
  }),
});

export type MyOrganizationProfile = z.infer<typeof myOrganizationProfile.schema>;

/** The profile a new environment starts with: its main one. */
export const FIRST_PROFILE = { name: 'Main', mainProfile: true } as const;

/** The order in which profiles stand in for "the company" where none is named: the main one first. */
export const PREFERRED_PROFILE_ORDER = [{ mainProfile: 'desc' }, { createdAt: 'asc' }, { id: 'asc' }] as const;
