import type { SqlModel } from '@bo/db';
import { organizationSql } from '../organization/organization.sql.js';
import { personSql } from '../person/person.sql.js';

export const contactPersonSql: SqlModel = {
  table: 'contact_person',
  fields: {
    id: { column: 'id', type: 'id' },
    person_id: { column: 'person_id', type: 'id' },
    is_active: { column: 'is_active', type: 'boolean' },
    work_function: { column: 'work_function', type: 'string' },
    work_email: { column: 'work_email', type: 'string' },
    work_phone: { column: 'work_phone', type: 'string' },
    work_mobile: { column: 'work_mobile', type: 'string' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    organization: { model: () => organizationSql, kind: 'one', local: 'organization_id', remote: 'id' },
    person: { model: () => personSql, kind: 'one', local: 'person_id', remote: 'id' },
  },
};
