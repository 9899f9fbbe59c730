import type { CustomFieldCompiler, SqlModel } from '@bo/db';

/** Storage mappings of the custom-field tables for the list compiler. */
export const customFieldModelSql: SqlModel = {
  table: 'custom_field_model',
  fields: {
    id: { column: 'id', type: 'id' },
    key: { column: 'key', type: 'string' },
    label: { column: 'label', type: 'string' },
  },
};

export const customFieldTypeSql: SqlModel = {
  table: 'custom_field_type',
  fields: {
    id: { column: 'id', type: 'id' },
    type: { column: 'type', type: 'string' },
    name: { column: 'name', type: 'string' },
    position: { column: 'position', type: 'integer' },
    value_type: { column: 'value_type', type: 'string' },
    is_mandatory_configurable: { column: 'is_mandatory_configurable', type: 'boolean' },
    is_searchable_configurable: { column: 'is_searchable_configurable', type: 'boolean' },
    is_filterable_configurable: { column: 'is_filterable_configurable', type: 'boolean' },
    is_collective_mutatable_configurable: { column: 'is_collective_mutatable_configurable', type: 'boolean' },
  },
};

export const customFieldGroupSql: SqlModel = {
  table: 'custom_field_group',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    position: { column: 'position', type: 'integer' },
    type: { column: 'type', type: 'string' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    model: { model: () => customFieldModelSql, kind: 'one', local: 'model_id', remote: 'id' },
  },
};

export const customFieldOptionSql: SqlModel = {
  table: 'custom_field_option',
  fields: {
    id: { column: 'id', type: 'id' },
    customfield_id: { column: 'custom_field_id', type: 'id' },
    label: { column: 'label', type: 'string' },
    value: { column: 'value', type: 'string' },
    position: { column: 'position', type: 'integer' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    customfield: { model: () => customFieldSql, kind: 'one', local: 'custom_field_id', remote: 'id' },
  },
};

export const customFieldSql: SqlModel = {
  table: 'custom_field',
  fields: {
    id: { column: 'id', type: 'id' },
    name: { column: 'name', type: 'string' },
    label: { column: 'label', type: 'string' },
    position: { column: 'position', type: 'integer' },
    filterable: { column: 'filterable', type: 'boolean' },
    searchable: { column: 'searchable', type: 'boolean' },
    mandatory: { column: 'mandatory', type: 'boolean' },
    model_key: { column: 'model_key', type: 'string' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    custom_field_group: { model: () => customFieldGroupSql, kind: 'one', local: 'group_id', remote: 'id' },
    type: { model: () => customFieldTypeSql, kind: 'one', local: 'type_id', remote: 'id' },
    options: { model: () => customFieldOptionSql, kind: 'many', local: 'id', remote: 'custom_field_id' },
  },
};

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
