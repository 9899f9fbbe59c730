import { referenceResource } from '../../shared/resources/reference-resource.js';
import { industrySql, organizationSizeSql, relationTypeSql } from '../organization/organization.sql.js';
import { countrySql, documentTypeSql, genderSql, interestSql } from './reference.sql.js';
import { countryView, documentTypeView, interestView, namedView, relationTypeView } from './reference.views.js';

/** Read-only CRM reference data, seeded per environment (see crm/reference-data.seed.ts). */
export const countryResource = referenceResource({
  name: 'crm/country',
  entityType: 'country',
  module: 'crm',
  sql: countrySql,
  defaultSort: [{ path: 'name', dir: 'asc' }],
  load: (db, ids) => db.country.findMany({ where: { id: { in: ids } } }),
  view: countryView,
});

export const genderResource = referenceResource({
  name: 'crm/gender',
  entityType: 'gender',
  module: 'crm',
  sql: genderSql,
  defaultSort: [{ path: 'name', dir: 'asc' }],
  load: (db, ids) => db.gender.findMany({ where: { id: { in: ids } } }),
  view: namedView,
});

export const industryResource = referenceResource({
  name: 'crm/industry',
  entityType: 'industry',
  module: 'crm',
  sql: industrySql,
  defaultSort: [{ path: 'name', dir: 'asc' }],
  load: (db, ids) => db.industry.findMany({ where: { id: { in: ids } } }),
  view: namedView,
});

export const interestResource = referenceResource({
  name: 'crm/interests',
  entityType: 'interest',
  module: 'crm',
  sql: interestSql,
  defaultSort: [{ path: 'name', dir: 'asc' }],
  load: (db, ids) => db.interest.findMany({ where: { id: { in: ids } } }),
  view: interestView,
});

export const organizationSizeResource = referenceResource({
  name: 'crm/organizationsize',
  entityType: 'organizationsize',
  module: 'crm',
  sql: organizationSizeSql,
  defaultSort: [{ path: 'name', dir: 'asc' }],
  load: (db, ids) => db.organizationSize.findMany({ where: { id: { in: ids } } }),
  view: namedView,
});

export const relationTypeResource = referenceResource({
  name: 'crm/relationtype',
  entityType: 'relationtype',
  module: 'crm',
  sql: relationTypeSql,
  defaultSort: [{ path: 'label', dir: 'asc' }],
  load: (db, ids) => db.relationType.findMany({ where: { id: { in: ids } } }),
  view: relationTypeView,
});

export const documentTypeResource = referenceResource({
  name: 'crm/documenttype',
  entityType: 'documenttype',
  module: 'crm',
  sql: documentTypeSql,
  defaultSort: [{ path: 'label', dir: 'asc' }],
  load: (db, ids) => db.documentType.findMany({ where: { id: { in: ids } } }),
  view: documentTypeView,
});
