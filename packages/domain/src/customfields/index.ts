/**
 * Custom fields, for every area that has them (organization, person, project,
 * sale, hours). Definitions live per environment and model (custom_field, with
 * groups, types and options); values live in one table keyed by
 * (custom_field_id, entity_id). To give a resource custom fields:
 *
 *   sql:   { ...yourSqlModel, customFields: customFieldsFilter('project') }
 *          → q[custom_fields.<name>]=… works with every operator and wildcard
 *   load:  const cf = await loadCustomFields(db, environmentId, 'project', ids)
 *          → Map id → the v2 `custom_fields` list (display_value, mandatory, …),
 *            in a fixed number of queries for the whole page
 *   write: schema field `custom_fields: customFieldValuesSchema`, then
 *          await writeCustomFields(tx, 'project', id, input.custom_fields, 'create' | 'update')
 *          → validates names, value types, options and mandatory fields (400 per field)
 *   delete: await deleteCustomFieldValues(tx, id)
 *   definitions: customfields.definitions.<model> (customfields/router.ts), v2 paths in the v2 adapter
 *
 * The model keys are seeded per environment (CUSTOM_FIELD_MODELS); a model not
 * seeded there has no custom fields, and a resource without the hook answers 400
 * to a custom-field filter.
 */
export { customFieldsFilter } from './custom-field.sql.js';
export {
  type CustomFieldValueView,
  customFieldValuesJson,
  customFieldViews,
  loadCustomFields,
  readDefinitions,
} from './custom-field-values.load.js';
export {
  customFieldValuesSchema,
  deleteCustomFieldValues,
  writeCustomFields,
  type CustomFieldValuesInput,
} from './custom-field-values.write.js';
export { CUSTOM_FIELD_MODELS } from './customfields.seed.js';
