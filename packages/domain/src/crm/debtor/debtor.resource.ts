import type { Models, SqlModel } from '@bo/db';
import type { Db } from '../../shared/resources/definition.js';
import { referenceResource } from '../../shared/resources/reference-resource.js';
import { organizationSql, relationTypeSql } from '../organization/organization.sql.js';
import { personSql } from '../person/person.sql.js';
import { relationTypeView } from '../reference/reference.views.js';

/** the `debtor` view: organizations and persons in one collection */
const debtorSql: SqlModel = {
  table: 'debtor',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    relation_number: { column: 'relation_number', type: 'string' },
    is_active: { column: 'is_active', type: 'boolean' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    organization: { model: () => organizationSql, kind: 'one', local: 'organization_id', remote: 'id' },
    person: { model: () => personSql, kind: 'one', local: 'person_id', remote: 'id' },
    relation_type: { model: () => relationTypeSql, kind: 'one', local: 'relation_type_id', remote: 'id' },
  },
};

type DebtorRow =
  | { id: string; organization: Models.OrganizationModel & { relationType: Models.RelationTypeModel | null }; person: null }
  | { id: string; organization: null; person: Models.PersonModel & { relationType: Models.RelationTypeModel | null } };

async function load(db: Db, ids: string[]): Promise<DebtorRow[]> {
  const [organizations, persons] = await Promise.all([
    db.organization.findMany({ where: { id: { in: ids } }, include: { relationType: true } }),
    db.person.findMany({ where: { id: { in: ids } }, include: { relationType: true } }),
  ]);
  return [
    ...organizations.map((o) => ({ id: o.id, organization: o, person: null })),
    ...persons.map((p) => ({ id: p.id, organization: null, person: p })),
  ];
}

/** reference: DebtorList: one of organization and person is set */
function debtorView(d: DebtorRow) {
  const rt = (r: Models.RelationTypeModel | null) => (r ? relationTypeView(r) : null);
  return {
    id: d.id,
    organization: d.organization
      ? {
          id: d.organization.id,
          name: d.organization.name,
          relation_number: d.organization.relationNumber,
          relation_type: rt(d.organization.relationType),
        }
      : null,
    person: d.person
      ? {
          id: d.person.id,
          full_name: d.person.fullName,
          relation_number: d.person.relationNumber,
          relation_type: rt(d.person.relationType),
        }
      : null,
  };
}

/** crm/debtor: who can be invoiced, organizations and persons together. */
export const debtorResource = referenceResource({
  name: 'crm/debtor',
  entityType: 'debtor',
  module: 'crm',
  sql: debtorSql,
  defaultSort: [{ path: 'name', dir: 'asc' }],
  load,
  view: debtorView,
});
