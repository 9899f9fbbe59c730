import type { SqlModel } from '@bo/db';
import { organizationSql } from '../crm/organization/organization.sql.js';
import { personSql } from '../crm/person/person.sql.js';
import { employeeRefSql } from '../crm/reference/reference.sql.js';
import { customFieldsFilter } from '../customfields/index.js';

/** the link table seen from the sale: `q[linked_projects.id]=project:…` */
const saleProjectSql: SqlModel = {
  table: 'sale_project',
  fields: { id: { column: 'project_id', type: 'id' } },
};

/** Filterable and sortable paths of sales/sales and the columns behind them. */
export const saleSql: SqlModel = {
  table: 'sale',
  customFields: customFieldsFilter('sale'),
  fields: {
    id: { column: 'id', type: 'id' },
    subject: { column: 'subject', type: 'string' },
    organization_id: { column: 'organization_id', type: 'id' },
    person_id: { column: 'person_id', type: 'id' },
    contact_id: { column: 'contact_id', type: 'id' },
    my_organization_profile_id: { column: 'my_organization_profile_id', type: 'id' },
    responsible_employee_id: { column: 'responsible_employee_id', type: 'id' },
    start_date: { column: 'start_date', type: 'date' },
    expected_closing_date: { column: 'expected_closing_date', type: 'date' },
    expected_revenue: { column: 'expected_revenue', type: 'number' },
    chance_to_score: { column: 'chance_to_score', type: 'integer' },
    note: { column: 'note', type: 'string' },
    divergent_payment_term_id: { column: 'divergent_payment_term_id', type: 'id' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    organization: { model: () => organizationSql, kind: 'one', local: 'organization_id', remote: 'id' },
    person: { model: () => personSql, kind: 'one', local: 'person_id', remote: 'id' },
    responsible_employee: { model: () => employeeRefSql, kind: 'one', local: 'responsible_employee_id', remote: 'id' },
    linked_projects: { model: () => saleProjectSql, kind: 'many', local: 'id', remote: 'sale_id' },
  },
};
