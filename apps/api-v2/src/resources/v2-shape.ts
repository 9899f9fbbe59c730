import {
  type AnyEntity,
  type CustomFieldForm,
  type EntityProjection,
  embeddedKeys,
  entityProjection,
  fieldKeys,
  type ProjectionKeys,
} from '@bo/domain';
import { V2_READ_ALIASES } from './v2-read-aliases.js';
import type { V2Names } from './v2-names.js';

/**
 * A resource's v2 read shape, declared once: its keys in the reference's order, each naming the
 * entity field (or relation, constant, custom fields) it shows. The domain compiles it twice: to
 * the SQL that makes each row's JSON text in the page's own statement, and to the JS read of a
 * single row. Relations embedded by their declared shape take the resource's names at every depth;
 * date-times are `YYYY-MM-DD HH:MM:SS`; the read aliases (`created`, `modified`) follow.
 */
export function v2Shape(entity: AnyEntity, names: V2Names, keys: ProjectionKeys): EntityProjection {
  const withAliases: Record<string, ProjectionKeys[string]> = { ...keys };
  for (const [alias, target] of Object.entries(V2_READ_ALIASES)) {
    const source = keys[target];
    if (source !== undefined && !(alias in keys)) withAliases[alias] = source;
  }
  return entityProjection(entity, withAliases, { rename: names.toV2, dateTime: 'seconds' });
}

/** The entity's fields by the resource's names, in the entity's order, but for `except` (declared below them). */
export function v2Fields(entity: AnyEntity, names: V2Names, except: readonly string[] = []): ProjectionKeys {
  return fieldKeys(entity, names.toV2, except);
}

/** What a relation (or an object computed key by key) embeds, by the resource's names, to spread and add to. */
export function v2Embedded(entity: AnyEntity, field: string, names: V2Names): ProjectionKeys {
  return embeddedKeys(entity, field, names.toV2);
}

/** a key v2 always answers empty */
export const V2_NULL = { constant: null } as const;
export const V2_EMPTY_LIST = { constant: [] } as const;

/** custom fields as v2 writes them (reference: GetCustomField, with display_value; a group's position a string) */
export const V2_CUSTOM_FIELDS: CustomFieldForm = {
  renderType: 'render_type',
  valueType: 'value_type',
  group: 'custom_field_group',
  displayValue: 'display_value',
  groupPositionAsText: true,
};
