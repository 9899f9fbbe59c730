import type { MyOrganizationProfile } from '@bo/domain/crm/myorganization/myorganizationprofile.entity';
import { v2Names } from '../v2-names.js';
import { v2Resource } from '../v2-resource.js';

const names = v2Names();

/** reference: MyOrganizationProfile, plus main_profile */
function profileV2(p: MyOrganizationProfile): Record<string, unknown> {
  return {
    id: p.id,
    organization_id: p.organization?.id ?? null,
    name: p.name,
    coc_code: p.cocCode,
    vat_number: p.vatNumber,
    bank_account: p.bankAccount,
    blocked: p.blocked,
    main_profile: p.mainProfile,
  };
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
