import type { SqlModel } from '@bo/db';
import { organizationSql } from '../organization/organization.sql.js';

/** who may use a profile, seen from the profile (user_id); used by the crm/myorganization scope */
const profileAccessSql: SqlModel = {
  table: 'my_organization_profile_access',
  fields: { id: { column: 'profile_id', type: 'id' }, user_id: { column: 'user_id', type: 'id' } },
};

export const myOrganizationProfileSql: SqlModel = {
  table: 'my_organization_profile',
  fields: {
    id: { column: 'id', type: 'id' },
    organization_id: { column: 'organization_id', type: 'id' },
    name: { column: 'name', type: 'string' },
    coc_code: { column: 'coc_code', type: 'string' },
    vat_number: { column: 'vat_number', type: 'string' },
    bank_account: { column: 'bank_account', type: 'string' },
    blocked: { column: 'blocked', type: 'boolean' },
    main_profile: { column: 'main_profile', type: 'boolean' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    organization: { model: () => organizationSql, kind: 'one', local: 'organization_id', remote: 'id' },
    access: { model: () => profileAccessSql, kind: 'many', local: 'id', remote: 'profile_id' },
  },
};
