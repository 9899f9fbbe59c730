import type { SqlModel } from '@bo/db';
import { organizationSql } from '../../crm/organization/organization.sql.js';
import { customFieldsFilter } from '../../customfields/custom-field.sql.js';

export const projectStatusSql: SqlModel = {
  table: 'project_status',
  fields: {
    id: { column: 'id', type: 'id' },
    label: { column: 'label', type: 'string' },
    color: { column: 'color', type: 'string' },
    is_closed: { column: 'is_closed', type: 'boolean' },
    position: { column: 'position', type: 'integer' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

export const projectSql: SqlModel = {
  table: 'project',
  customFields: customFieldsFilter('project'),
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    project_number: { column: 'project_number', type: 'string' },
    billable: { column: 'billable', type: 'boolean' },
    phase: { column: 'phase', type: 'string' },
    organization_id: { column: 'organization_id', type: 'id' },
    person_id: { column: 'person_id', type: 'id' },
    contact_id: { column: 'contact_id', type: 'id' },
    note: { column: 'note', type: 'string' },
    start_date: { column: 'start_date', type: 'date' },
    end_date: { column: 'end_date', type: 'date' },
    invoice_reference: { column: 'invoice_reference', type: 'string' },
    can_register_mileage: { column: 'can_register_mileage', type: 'boolean' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    project_status: { model: () => projectStatusSql, kind: 'one', local: 'project_status_id', remote: 'id' },
    organization: { model: () => organizationSql, kind: 'one', local: 'organization_id', remote: 'id' },
    project_manager: {
      model: () => ({
        table: 'employee',
        fields: { id: { column: 'id', type: 'id' }, name: { column: 'name', type: 'string' } },
      }),
      kind: 'one',
      local: 'project_manager_id',
      remote: 'id',
    },
  },
};
