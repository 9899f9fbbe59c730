import type { TenantSql } from '@bo/db';
import type { CustomFieldValue } from './custom-field-value.schema.js';
import type { CustomFieldRow, valueView } from './custom-field.view.js';

export type CustomFieldValueView = ReturnType<typeof valueView>;

/** The same definitions in one SQL query (reads of every page need them); $1 environment, $2 model key. */
const DEFINITIONS_FOR_READ_SQL = `SELECT f.id, f.name, f.label, f.position, f.filterable, f.searchable, f.mandatory,
            json_build_object('type', t.type, 'renderType', t.render_type, 'valueType', t.value_type, 'hasOptions', t.has_options) AS type,
            CASE WHEN g.id IS NULL THEN NULL ELSE json_build_object('id', g.id, 'name', g.name, 'position', g.position, 'type', g.type,
                 'model', json_build_object('id', m.id, 'label', m.label)) END AS "group",
            COALESCE((SELECT json_agg(json_build_object('id', o.id, 'label', o.label, 'value', o.value, 'position', o.position)
                                      ORDER BY o.position, o.id)
                        FROM custom_field_option o WHERE o.custom_field_id = f.id AND o.environment_id = $1), '[]'::json) AS options
       FROM custom_field f
       JOIN custom_field_type t ON t.id = f.type_id
       LEFT JOIN custom_field_group g ON g.id = f.group_id
       LEFT JOIN custom_field_model m ON m.id = g.model_id
      WHERE f.environment_id = $1 AND f.model_key = $2
      ORDER BY f.position, f.created_at, f.id`;

// readers whose definitions are read once per model: a write transaction's, where the
// values' check and the re-read for the event need them both and no entity write changes them
const remembered = new WeakMap<TenantSql, Map<string, Promise<CustomFieldRow[]>>>();

/**
 * Definitions read through this reader (a write transaction's) are read once per model; those
 * `known` already (read before the transaction opened) are not read in it at all.
 */
export function readDefinitionsOnce(sql: TenantSql, known?: ReadonlyMap<string, CustomFieldRow[]>): void {
  const memo = new Map<string, Promise<CustomFieldRow[]>>();
  for (const [model, rows] of known ?? []) memo.set(model, Promise.resolve(rows));
  remembered.set(sql, memo);
}

/** The definitions of one model through the tenant reader (list pages, and writes in a transaction). */
export async function readDefinitions(sql: TenantSql, modelKey: string): Promise<CustomFieldRow[]> {
  const memo = remembered.get(sql);
  // outside a write: nearly every list page reads them and they hardly ever change, so they
  // are remembered for a moment per process, forgotten on every process when one changes
  if (!memo) return sql.readRemembered<CustomFieldRow>('custom_fields_changed', DEFINITIONS_FOR_READ_SQL, [modelKey]);
  let read = memo.get(modelKey);
  if (!read) {
    read = sql.read<CustomFieldRow>(DEFINITIONS_FOR_READ_SQL, [modelKey]);
    memo.set(modelKey, read);
  }
  return read;
}

/**
 * SQL of one entity's custom-field values as a JSON object {custom_field_id: value},
 * for a loader to select beside the entity's row; `entityId` is the row's id expression.
 */
export function customFieldValuesJson(entityId: string, environmentParam = '$1'): string {
  return `(SELECT json_object_agg(v.custom_field_id, v.value) FROM custom_field_value v
            WHERE v.environment_id = ${environmentParam} AND v.entity_id = ${entityId})`;
}

/** FROM … WHERE of every definition of `model` (f), its type (ty), group (g), group's model (m) and the entity's value (v). */
function definitionsWithValue(entityId: string, model: string): string {
  if (!/^[a-z_]+$/.test(model)) throw new Error(`not a custom-field model key: ${model}`);
  return `FROM custom_field f
       JOIN custom_field_type ty ON ty.id = f.type_id
       LEFT JOIN custom_field_group g ON g.id = f.group_id
       LEFT JOIN custom_field_model m ON m.id = g.model_id
       LEFT JOIN custom_field_value v ON v.custom_field_id = f.id AND v.entity_id = ${entityId} AND v.environment_id = $1
      WHERE f.environment_id = $1 AND f.model_key = '${model}'`;
}

/**
 * SQL of an entity's custom fields as customFieldViews makes them, as a JSON array (an event's payload
 * made by PostgreSQL): every definition of `model` in display order with the entity's value, the
 * option's label as the display value. `entityId` is the row's id expression; $1 is the environment.
 */
export function customFieldViewsJson(entityId: string, model: string): string {
  if (!/^[a-z_]+$/.test(model)) throw new Error(`not a custom-field model key: ${model}`);
  const option = (columns: string, where: string) =>
    `(SELECT ${columns} FROM custom_field_option o WHERE o.custom_field_id = f.id AND o.environment_id = $1${where})`;
  return `COALESCE((SELECT json_agg(json_build_object(
        'id', f.id, 'name', f.name, 'label', f.label, 'value', v.value, 'type', ty.type, 'renderType', ty.render_type,
        'position', f.position, 'filterable', f.filterable, 'searchable', f.searchable, 'mandatory', f.mandatory,
        'valueType', ty.value_type,
        'group', CASE WHEN g.id IS NULL THEN NULL ELSE json_build_object('id', g.id, 'name', g.name, 'position', g.position,
                 'model', json_build_object('id', m.id, 'label', m.label), 'type', g.type) END,
        'options', COALESCE(${option(`json_agg(json_build_object('id', o.id, 'label', o.label, 'value', o.value, 'position', o.position) ORDER BY o.position, o.id)`, '')}, '[]'::json),
        'displayValue', CASE WHEN v.value IS NULL THEN NULL
                        ELSE COALESCE(${option('o.label', ' AND o.value = v.value ORDER BY o.position, o.id LIMIT 1')}, v.value) END)
        ORDER BY f.position, f.created_at, f.id)
       ${definitionsWithValue(entityId, model)}), '[]'::json)`;
}

/** The names a wire gives a custom field's keys that are not the same in every form, and its group's position type. */
export interface CustomFieldForm {
  readonly renderType: string;
  readonly valueType: string;
  readonly group: string;
  readonly displayValue: string;
  /** v2 writes a group's position as a string */
  readonly groupPositionAsText: boolean;
}

/**
 * SQL of an entity's custom fields in a wire's form (see EntityProjection), as compact JSON: the
 * objects customFieldViewsJson makes, keys renamed by `form`. `entityId` is the row's id
 * expression; $1 is the environment.
 */
export function customFieldFormJson(entityId: string, model: string, form: CustomFieldForm): string {
  if (!/^[a-z_]+$/.test(model)) throw new Error(`not a custom-field model key: ${model}`);
  const key = (k: string) => {
    if (!/^[a-z_]+$/i.test(k)) throw new Error(`unsafe custom-field key ${k}`);
    return `"${k}"`;
  };
  const row = (list: string) => `(SELECT row_to_json(r) FROM (SELECT ${list}) r)`;
  const position = form.groupPositionAsText ? 'g.position::text' : 'g.position';
  const group = `CASE WHEN g.id IS NULL THEN NULL ELSE ${row(`g.id AS "id", g.name AS "name", ${position} AS "position",
        ${row('m.id AS "id", m.label AS "label"')} AS "model", g.type AS "type"`)} END`;
  const options = `COALESCE((SELECT ('[' || string_agg(${row('o.id AS "id", o.label AS "label", o.value AS "value", o.position AS "position"')}::text, ',' ORDER BY o.position, o.id) || ']')::json
        FROM custom_field_option o WHERE o.custom_field_id = f.id AND o.environment_id = $1), '[]'::json)`;
  const display = `CASE WHEN v.value IS NULL THEN NULL
        ELSE COALESCE((SELECT o.label FROM custom_field_option o WHERE o.custom_field_id = f.id AND o.environment_id = $1
                        AND o.value = v.value ORDER BY o.position, o.id LIMIT 1), v.value) END`;
  const item = row(`f.id AS "id", f.name AS "name", f.label AS "label", v.value AS "value", ty.type AS "type",
        ty.render_type AS ${key(form.renderType)}, f.position AS "position", f.filterable AS "filterable",
        f.searchable AS "searchable", f.mandatory AS "mandatory", ty.value_type AS ${key(form.valueType)},
        ${group} AS ${key(form.group)}, ${options} AS "options", ${display} AS ${key(form.displayValue)}`);
  return `COALESCE((SELECT ('[' || string_agg(${item}::text, ',' ORDER BY f.position, f.created_at, f.id) || ']')::json
       ${definitionsWithValue(entityId, model)}), '[]'::json)`;
}

/** the views of one set of definitions: a remembered read answers the same array to every page while it lasts */
const viewsOf = new WeakMap<CustomFieldRow[], (values: Record<string, string | null> | null) => CustomFieldValue[]>();

/**
 * The custom fields of an entity from its values object (see customFieldValuesJson):
 * every defined field, value null when unset. The definition part (its group and options)
 * is built once per set of definitions and shared by every row; each value is one object
 * literal in the schema's key order (a spread of the definition with two more keys has no
 * cached shape in V8, and its order was not the schema's).
 */
export function customFieldViews(
  definitions: CustomFieldRow[],
): (values: Record<string, string | null> | null) => CustomFieldValue[] {
  const known = viewsOf.get(definitions);
  if (known) return known;
  const bases = definitions.map((d) => ({
    d,
    // frozen: every row holds these same objects
    group: d.group
      ? Object.freeze({
          id: d.group.id,
          name: d.group.name,
          position: d.group.position,
          model: Object.freeze({ id: d.group.model.id, label: d.group.model.label }),
          type: d.group.type,
        })
      : null,
    options: Object.freeze(
      d.options.map((o) => Object.freeze({ id: o.id, label: o.label, value: o.value, position: o.position })),
    ) as CustomFieldValue['options'],
  }));
  const views = (values: Record<string, string | null> | null): CustomFieldValue[] =>
    bases.map(({ d, group, options }) => {
      const value = values?.[d.id] ?? null;
      const option = value === null ? undefined : d.options.find((o) => o.value === value);
      return {
        id: d.id,
        name: d.name,
        label: d.label,
        value,
        type: d.type.type,
        renderType: d.type.renderType,
        position: d.position,
        filterable: d.filterable,
        searchable: d.searchable,
        mandatory: d.mandatory,
        valueType: d.type.valueType,
        group,
        options,
        displayValue: value === null ? null : (option?.label ?? value),
      };
    });
  viewsOf.set(definitions, views);
  return views;
}
