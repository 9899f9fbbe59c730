import type { CustomFieldCompiler } from '@bo/db';

/**
 * The `customFields` hook of a resource's SqlModel: `q[custom_fields.<name>]`
 * becomes an EXISTS over the value table, matched on the field's `name` within
 * this model (organization, person, project, sale, …).
 */
export function customFieldsFilter(modelKey: string): CustomFieldCompiler {
  if (!/^[a-z_]+$/.test(modelKey)) throw new Error(`unsafe custom-field model key ${modelKey}`);
  return ({ alias, environmentParam, nameParam, predicate }) =>
    `EXISTS (SELECT 1 FROM "custom_field_value" cv JOIN "custom_field" cf ON cf.id = cv.custom_field_id` +
    ` WHERE cv.entity_id = ${alias}."id" AND cv.environment_id = ${environmentParam}` +
    ` AND cf.environment_id = ${environmentParam} AND cf.model_key = '${modelKey}' AND cf.name = ${nameParam}` +
    ` AND ${predicate('cv.value')})`;
}
