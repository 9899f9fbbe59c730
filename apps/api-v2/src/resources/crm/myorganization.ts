import type { MyOrganizationProfile } from '@bo/domain/crm/myorganization/myorganizationprofile.entity';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names();

/** reference: MyOrganizationProfile, plus which profile is the main one */
function profileV2(p: MyOrganizationProfile): Record<string, unknown> {
  // the profile's own fields by convention; who may use it and when it changed are not shown
  const { organization, access: _access, createdAt: _created, updatedAt: _updated, ...own } = p;
  return { organization_id: organization?.id ?? null, ...(names.output(own) as Record<string, unknown>) };
}

/** crm/myorganizationprofile: every company profile of the environment. */
export const myOrganizationProfileV2 = v2Resource<MyOrganizationProfile>({
  path: 'crm/myorganizationprofile',
  procedures: (c) => c.crm.myorganizationprofile,
  names,
  read: profileV2,
});

/** crm/myorganization: only the company profiles the user may use; read-only. */
export const myOrganizationV2 = v2Resource<MyOrganizationProfile>({
  path: 'crm/myorganization',
  procedures: (c) => c.crm.myorganization,
  names,
  methods: { create: false, update: false, delete: false },
  read: profileV2,
});
