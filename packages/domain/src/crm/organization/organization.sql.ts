import type { SqlModel } from '@bo/db';
import { addressSql } from '../address.sql.js';
import { customFieldsFilter } from '../../customfields/custom-field.sql.js';
import { employeeRefSql } from '../reference/reference.sql.js';
import { personContactSql } from '../person/person.sql.js';

/** Storage mapping of organizations for the list compiler: v2 field names → columns. */
export const relationTypeSql: SqlModel = {
  table: 'relation_type',
  fields: {
    id: { column: 'id', type: 'id' },
    label: { column: 'label', type: 'string' },
    color: { column: 'color', type: 'string' },
    type: { column: 'type', type: 'string' },
  },
};

export const namedReferenceSql = (table: string): SqlModel => ({
  table,
  fields: { id: { column: 'id', type: 'id' }, name: { column: 'name', type: 'string' } },
});

export const industrySql = namedReferenceSql('industry');
export const organizationSizeSql = namedReferenceSql('organization_size');

export const organizationAddressSql: SqlModel = addressSql('organization_address');

export const organizationSql: SqlModel = {
  table: 'organization',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    coc_code: { column: 'coc_code', type: 'string' },
    vat_number: { column: 'vat_number', type: 'string' },
    email: { column: 'email', type: 'string' },
    phone: { column: 'phone', type: 'string' },
    url: { column: 'url', type: 'string' },
    note: { column: 'note', type: 'string' },
    linkedin_url: { column: 'linkedin_url', type: 'string' },
    has_different_postal_address: { column: 'has_different_postal_address', type: 'boolean' },
    invoice_receiver: { column: 'invoice_receiver', type: 'string' },
    allow_autocollect: { column: 'allow_autocollect', type: 'boolean' },
    bank_account: { column: 'bank_account', type: 'string' },
    bank_bic: { column: 'bank_bic', type: 'string' },
    relation_number: { column: 'relation_number', type: 'string' },
    is_active: { column: 'is_active', type: 'boolean' },
    send_invoice_email_to_contact: { column: 'send_invoice_email_to_contact', type: 'boolean' },
    send_invoice_email_to_project_contact: { column: 'send_invoice_email_to_project_contact', type: 'boolean' },
    send_invoice_email_to_fixed_email: { column: 'send_invoice_email_to_fixed_email', type: 'boolean' },
    send_invoice_email_to_cc: { column: 'send_invoice_email_to_cc', type: 'boolean' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    relation_type: { model: () => relationTypeSql, kind: 'one', local: 'relation_type_id', remote: 'id' },
    industry: { model: () => industrySql, kind: 'one', local: 'industry_id', remote: 'id' },
    organizationsize: { model: () => organizationSizeSql, kind: 'one', local: 'organization_size_id', remote: 'id' },
    visiting_address: {
      model: () => organizationAddressSql,
      kind: 'one',
      local: 'id',
      remote: 'organization_id',
      where: (a) => `${a}.kind = 'visiting'`,
    },
    postal_address: {
      model: () => organizationAddressSql,
      kind: 'one',
      local: 'id',
      remote: 'organization_id',
      where: (a) => `${a}.kind = 'postal'`,
    },
    relation_manager: { model: () => employeeRefSql, kind: 'one', local: 'relation_manager_id', remote: 'id' },
    interests: { model: () => organizationInterestSql, kind: 'many', local: 'id', remote: 'organization_id' },
    linked_persons_contacts: {
      model: () => personContactSql,
      kind: 'many',
      local: 'id',
      remote: 'organization_id',
      where: (a) => `${a}.is_active`,
    },
  },
  customFields: customFieldsFilter('organization'),
};

/** the link table seen from the organization: `interests.id` */
const organizationInterestSql: SqlModel = {
  table: 'organization_interest',
  fields: { id: { column: 'interest_id', type: 'id' } },
};
