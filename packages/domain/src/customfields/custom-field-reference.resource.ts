import { referenceResource } from '../shared/resources/reference-resource.js';
import { customFieldModelSql, customFieldTypeSql } from './custom-field.sql.js';
import { modelView, typeView } from './custom-field.view.js';

/** customfields/model: which models carry custom fields (seeded per environment). */
export const customFieldModelResource = referenceResource({
  name: 'customfields/model',
  entityType: 'customfieldmodel',
  module: 'customfields',
  sql: customFieldModelSql,
  defaultSort: [{ path: 'label', dir: 'asc' }],
  load: (db, ids) => db.customFieldModel.findMany({ where: { id: { in: ids } } }),
  view: modelView,
});

/** customfields/type: the kinds of custom field (seeded per environment). */
export const customFieldTypeResource = referenceResource({
  name: 'customfields/type',
  entityType: 'customfieldtype',
  module: 'customfields',
  sql: customFieldTypeSql,
  defaultSort: [{ path: 'position', dir: 'asc' }],
  load: (db, ids) => db.customFieldType.findMany({ where: { id: { in: ids } } }),
  view: typeView,
});
