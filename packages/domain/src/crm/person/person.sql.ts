import type { SqlModel } from '@bo/db';
import { customFieldsFilter } from '../../customfields/index.js';
import { addressSql } from '../address.sql.js';
import { organizationSql, relationTypeSql } from '../organization/organization.sql.js';
import { employeeRefSql, genderSql } from '../reference/reference.sql.js';

/** A person's contact links as a nested path (linked_as_contact_to_organization.*). */
export const personContactSql: SqlModel = {
  table: 'contact_person',
  fields: {
    id: { column: 'id', type: 'id' },
    organization_id: { column: 'organization_id', type: 'id' },
    person_id: { column: 'person_id', type: 'id' },
    is_active: { column: 'is_active', type: 'boolean' },
    work_function: { column: 'work_function', type: 'string' },
    work_email: { column: 'work_email', type: 'string' },
    work_phone: { column: 'work_phone', type: 'string' },
    work_mobile: { column: 'work_mobile', type: 'string' },
  },
  relations: {
    organization: { model: () => organizationSql, kind: 'one', local: 'organization_id', remote: 'id' },
    person: { model: () => personSql, kind: 'one', local: 'person_id', remote: 'id' },
  },
};

/** link tables seen from the person: `interests.id`, `mailing_lists.id` */
const personInterestSql: SqlModel = { table: 'person_interest', fields: { id: { column: 'interest_id', type: 'id' } } };
const personMailingListSql: SqlModel = {
  table: 'person_mailing_list',
  fields: { id: { column: 'mailing_list_id', type: 'id' } },
};

/** the person address table has the organization address's columns */
const personAddressSql: SqlModel = addressSql('person_address');

export const personSql: SqlModel = {
  table: 'person',
  fields: {
    id: { column: 'id', type: 'id' },
    gender_id: { column: 'gender_id', type: 'id' },
    use_custom_salutation: { column: 'use_custom_salutation', type: 'boolean' },
    custom_salutation: { column: 'custom_salutation', type: 'string' },
    initials: { column: 'initials', type: 'string' },
    first_name: { column: 'first_name', type: 'string' },
    family_name_prefix: { column: 'family_name_prefix', type: 'string' },
    family_name: { column: 'family_name', type: 'string' },
    full_name: { column: 'full_name', type: 'string' },
    date_of_birth: { column: 'date_of_birth', type: 'date' },
    note: { column: 'note', type: 'string' },
    email: { column: 'email', type: 'string' },
    phone: { column: 'phone', type: 'string' },
    website_url: { column: 'website_url', type: 'string' },
    twitter_url: { column: 'twitter_url', type: 'string' },
    linkedin_url: { column: 'linkedin_url', type: 'string' },
    facebook_url: { column: 'facebook_url', type: 'string' },
    relation_number: { column: 'relation_number', type: 'string' },
    bank_account: { column: 'bank_account', type: 'string' },
    bank_bic: { column: 'bank_bic', type: 'string' },
    invoice_receiver: { column: 'invoice_receiver', type: 'string' },
    mailing_list_email: { column: 'mailing_list_email', type: 'string' },
    is_active: { column: 'is_active', type: 'boolean' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    relation_type: { model: () => relationTypeSql, kind: 'one', local: 'relation_type_id', remote: 'id' },
    gender: { model: () => genderSql, kind: 'one', local: 'gender_id', remote: 'id' },
    relation_manager: { model: () => employeeRefSql, kind: 'one', local: 'relation_manager_id', remote: 'id' },
    address: { model: () => personAddressSql, kind: 'many', local: 'id', remote: 'person_id' },
    interests: { model: () => personInterestSql, kind: 'many', local: 'id', remote: 'person_id' },
    mailing_lists: { model: () => personMailingListSql, kind: 'many', local: 'id', remote: 'person_id' },
    linked_as_contact_to_organization: { model: () => personContactSql, kind: 'many', local: 'id', remote: 'person_id' },
  },
  customFields: customFieldsFilter('person'),
};
