/**
 * Custom fields, for every area that has them (organization, person, project,
 * sale, hours). Definitions live per environment and model (custom_field, with
 * groups, types and options); values live in one table keyed by
 * (custom_field_id, entity_id). To give an entity custom fields:
 *
 *   declaration: `customFields: f.customFields('project', customFieldValueSchema)`
 *          → the page loader reads them (customFieldViews) and
 *            q[custom_fields.<name>]=… filters with every operator and wildcard
 *   write: input field `customFields: customFieldValuesSchema`, then
 *          await writeCustomFields(w.sql, 'project', id, input.customFields, 'create' | 'update')
 *          → validates names, value types, options and mandatory fields (400 per field)
 *   delete: await deleteCustomFieldValues(w.sql, id)
 *   definitions: customfields.definitions.<model> and customfields.groups.<model> (router.ts)
 *
 * The model keys are seeded per environment (CUSTOM_FIELD_MODELS); a model not
 * seeded there has no custom fields, and an entity without the field answers 400
 * to a custom-field filter.
 */
export { customFieldsFilter } from './custom-field.sql.js';
export {
  type CustomFieldValueView,
  customFieldValuesJson,
  customFieldViewsJson,
  customFieldViews,
  readDefinitions,
} from './custom-field-values.load.js';
export {
  customFieldValuesSchema,
  deleteCustomFieldValues,
  writeCustomFields,
  type CustomFieldValuesInput,
} from './custom-field-values.write.js';
export { CUSTOM_FIELD_MODELS } from './customfields.seed.js';
