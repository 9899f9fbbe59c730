import type { SqlModel } from '@bo/db';

/** Storage mappings of the CRM reference tables for the list compiler. */
export const countrySql: SqlModel = {
  table: 'country',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    country_code: { column: 'country_code', type: 'string' },
    language_code: { column: 'language_code', type: 'string' },
  },
};

export const genderSql: SqlModel = {
  table: 'gender',
  fields: { id: { column: 'id', type: 'id' }, name: { column: 'name', type: 'string' } },
};

export const interestSql: SqlModel = {
  table: 'interest',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    api_name: { column: 'api_name', type: 'string' },
    organization: { column: 'organization', type: 'boolean' },
    person: { column: 'person', type: 'boolean' },
  },
};

export const mailingListSql: SqlModel = {
  table: 'mailing_list',
  fields: { id: { column: 'id', type: 'id' }, name: { column: 'name', type: 'string' } },
};

export const documentTypeSql: SqlModel = {
  table: 'document_type',
  fields: {
    id: { column: 'id', type: 'id' },
    label: { column: 'label', type: 'string' },
    can_have_attachment: { column: 'can_have_attachment', type: 'boolean' },
    is_for_crm: { column: 'is_for_crm', type: 'boolean' },
    is_for_contact: { column: 'is_for_contact', type: 'boolean' },
    is_for_sale: { column: 'is_for_sale', type: 'boolean' },
    is_for_debtor: { column: 'is_for_debtor', type: 'boolean' },
    is_for_project: { column: 'is_for_project', type: 'boolean' },
    is_for_subscription: { column: 'is_for_subscription', type: 'boolean' },
    is_for_employee: { column: 'is_for_employee', type: 'boolean' },
    is_for_invoice: { column: 'is_for_invoice', type: 'boolean' },
    is_for_myorganizationprofile: { column: 'is_for_myorganizationprofile', type: 'boolean' },
    is_blocked: { column: 'is_blocked', type: 'boolean' },
    is_visible_on_all: { column: 'is_visible_on_all', type: 'boolean' },
  },
};

/** hrm employees as far as CRM filters reach them (relation_manager); the table is HRM's. */
export const employeeRefSql: SqlModel = {
  table: 'employee',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    person_id: { column: 'person_id', type: 'id' },
    work_email: { column: 'work_email', type: 'string' },
  },
};
