import type { z } from 'zod';
import { customFieldFormJson, type CustomFieldForm } from '../../customfields/custom-field-values.load.js';
import type { CustomFieldValue } from '../../customfields/custom-field-value.schema.js';
import { type AnyField, columnOf, type TargetEntity } from './fields.js';
import { ident, objectShape } from './entity-loader.js';

/**
 * A projection: an entity's row in the shape a wire shows it (keys, order, forms), declared once
 * and compiled twice. Its SQL form is the row as compact JSON text, made by PostgreSQL in the
 * statement that reads the page, so a page's rows are never built as objects in the process; its
 * JS form makes the same object from a row as the loader answers it (a single read, a page the
 * caller's rights mask, a `select`). Both must give equal JSON, key for key: each adapter's
 * projection has a test that feeds them the same rows.
 */

/** A value a key shows whatever the row. */
export type ProjectionConstant = null | boolean | number | string | readonly never[];

/** Where one key of a projection takes its value. */
export type ProjectionSource =
  /**
   * a field of the entity, or a key inside a json field (`debtor.cc`). A relation embeds its
   * declared shape with every key renamed by the form, at every depth (null or [] when empty).
   */
  | string
  | { readonly constant: ProjectionConstant }
  /** a relation with keys of its own; a restricted relation the caller may not read shows `{id, name}` */
  | { readonly relation: string; readonly keys: ProjectionKeys }
  /** an object of keys over the same row (a group of fields the wire nests) */
  | { readonly object: ProjectionKeys }
  /** `ifEqual` when the field equals `value`, `ifNot` when not (null included) */
  | { readonly equals: string; readonly value: string; readonly ifEqual: string; readonly ifNot: string }
  /** the custom fields, every definition of the model with the row's value, in the form's names */
  | { readonly customFields: string; readonly form: CustomFieldForm };

export type ProjectionKeys = Readonly<Record<string, ProjectionSource>>;

export interface ProjectionForm {
  /** the wire name of a domain name, for keys embedded by their declared shape */
  rename(domainName: string): string;
  /** date-times as `YYYY-MM-DD HH:MM:SS` in UTC */
  readonly dateTime: 'seconds';
}

type Read = (row: Record<string, unknown>) => unknown;

export interface EntityProjection {
  readonly entity: TargetEntity;
  readonly keys: readonly string[];
  /** the row as the wire shows it, from a row as the loader answers it */
  read(row: unknown): Record<string, unknown>;
  /**
   * SQL of the row `t` as compact JSON text ($1 the environment). `customFields: false`: the
   * model has no definitions in the environment, so every row shows `[]` without a sub-query.
   */
  sql(customFields: boolean): string;
  /** whether the projection shows custom fields (their definitions decide its SQL) */
  readonly customFieldsModel: string | null;
  /** the same projection without some keys (fields a read shows only when asked for) */
  without(keys: readonly string[]): EntityProjection;
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/** A date-time as `YYYY-MM-DD HH:MM:SS`, UTC (as PostgreSQL's to_char writes it for years 1000–9999). */
export function dateTimeSeconds(d: unknown): string | null {
  if (d === null || d === undefined) return null;
  const date = d instanceof Date ? d : new Date(String(d));
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  if (year < 1000 || year > 9999) {
    const iso = date.toISOString();
    return iso.length === 24 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : `${iso.slice(0, -14)} ${iso.slice(-13, -5)}`;
  }
  return `${year}-${TWO_DIGITS[date.getUTCMonth() + 1]}-${TWO_DIGITS[date.getUTCDate()]} ${TWO_DIGITS[date.getUTCHours()]}:${TWO_DIGITS[date.getUTCMinutes()]}:${TWO_DIGITS[date.getUTCSeconds()]}`;
}

function dateTimeSql(sql: string): string {
  return `to_char((${sql}) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')`;
}

function literal(v: ProjectionConstant): string {
  if (v === null) return 'NULL';
  if (Array.isArray(v)) return `'[]'::json`;
  if (typeof v === 'boolean' || typeof v === 'number') return `${v}`;
  return `'${String(v).replace(/'/g, "''")}'::text`;
}

function fieldOf(entity: TargetEntity, name: string): AnyField {
  const field = Object.hasOwn(entity.fields, name) ? entity.fields[name] : undefined;
  if (!field) throw new Error(`${entity.type} has no field "${name}" to project`);
  return field;
}

/** The keys a relation's declared shape embeds, renamed by the form, at every depth. */
function shapeKeys(schema: z.ZodType, form: ProjectionForm): ProjectionKeys {
  const keys: Record<string, ProjectionSource> = {};
  for (const key of Object.keys(objectShape(schema))) keys[form.rename(key)] = key;
  return keys;
}

/**
 * The keys a field embeds, each under its name renamed: a relation's declared shape, or the keys of
 * an object computed key by key. A projection spreads them and adds its own (`{...keys, country: null}`),
 * so that no field's name is written again where the convention gives it.
 */
export function embeddedKeys(entity: TargetEntity, name: string, rename: (domainName: string) => string): ProjectionKeys {
  const field = fieldOf(entity, name);
  if (isRelation(field)) return shapeKeys(field.schema, { rename, dateTime: 'seconds' });
  if (field.kind === 'computed' && field.keys) {
    return Object.fromEntries(Object.keys(field.keys).map((k) => [rename(k), `${name}.${k}`]));
  }
  throw new Error(`${entity.type}.${name} embeds no keys: a relation or an object computed key by key`);
}

/** The entity's own fields in their declared order, each under its name renamed, but for `except`. */
export function fieldKeys(
  entity: TargetEntity,
  rename: (domainName: string) => string,
  except: readonly string[] = [],
): ProjectionKeys {
  for (const name of except) fieldOf(entity, name);
  return Object.fromEntries(
    Object.keys(entity.fields)
      .filter((name) => !except.includes(name))
      .map((name) => [rename(name), name]),
  );
}

type Relation = Extract<AnyField, { kind: 'ref' | 'one' | 'many' }>;

const isRelation = (field: AnyField): field is Relation => field.kind === 'ref' || field.kind === 'one' || field.kind === 'many';

/** The JS form of a source over a row of `entity`. */
function readerOf(entity: TargetEntity, source: ProjectionSource, form: ProjectionForm): Read {
  if (typeof source !== 'string') {
    if ('constant' in source) {
      const c = source.constant;
      return Array.isArray(c) ? () => [] : () => c;
    }
    if ('relation' in source) return relationReader(entity, source.relation, source.keys, form);
    if ('object' in source) return objectReader(entity, source.object, form);
    if ('equals' in source) {
      const { equals, value, ifEqual, ifNot } = source;
      fieldOf(entity, equals);
      return (row) => (row[equals] === value ? ifEqual : ifNot);
    }
    const name = source.customFields;
    if (fieldOf(entity, name).kind !== 'customFields') throw new Error(`${entity.type}.${name} is not custom fields`);
    const cf = source.form;
    return (row) => ((row[name] as CustomFieldValue[] | null) ?? []).map((v) => customFieldForm(v, cf));
  }
  const dot = source.indexOf('.');
  if (dot !== -1) {
    const name = source.slice(0, dot);
    const key = source.slice(dot + 1);
    const field = fieldOf(entity, name);
    if (!(field.kind === 'computed' || field.kind === 'scalar') || field.type !== 'json') {
      throw new Error(`${entity.type}.${source}: only a json field's keys are projected by path`);
    }
    return (row) => (row[name] as Record<string, unknown> | null)?.[key] ?? null;
  }
  const field = fieldOf(entity, source);
  if (isRelation(field)) return relationReader(entity, source, shapeKeys(field.schema, form), form);
  if (field.kind === 'customFields') throw new Error(`${entity.type}.${source}: project custom fields with their form`);
  if (field.type === 'json' && field.kind === 'computed') {
    throw new Error(`${entity.type}.${source}: project a computed json field by its keys`);
  }
  if (field.type === 'datetime') return (row) => dateTimeSeconds(row[source]);
  return (row) => row[source] ?? null;
}

function relationReader(entity: TargetEntity, name: string, keys: ProjectionKeys, form: ProjectionForm): Read {
  const field = fieldOf(entity, name);
  if (!isRelation(field)) throw new Error(`${entity.type}.${name} is not a relation`);
  const target = field.target();
  const one = objectReader(target, keys, form);
  // the masked form of a relation into a module the caller may not read (restrictRelations)
  const full = Object.keys(objectShape(field.schema)).find((k) => k !== 'id' && k !== 'name');
  const each = (v: Record<string, unknown>) =>
    field.restricted && full !== undefined && !(full in v) ? { id: v.id, name: v.name ?? null } : one(v);
  if (field.kind === 'many') return (row) => ((row[name] as Record<string, unknown>[] | null) ?? []).map(each);
  return (row) => {
    const v = row[name] as Record<string, unknown> | null | undefined;
    return v ? each(v) : null;
  };
}

function objectReader(entity: TargetEntity, keys: ProjectionKeys, form: ProjectionForm) {
  const parts = Object.entries(keys).map(([key, source]) => [key, readerOf(entity, source, form)] as const);
  return (row: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, read] of parts) out[key] = read(row);
    return out;
  };
}

/** One custom field in a wire's names (its value and the option label shown for it). */
function customFieldForm(v: CustomFieldValue, f: CustomFieldForm): Record<string, unknown> {
  const g = v.group;
  return {
    id: v.id,
    name: v.name,
    label: v.label,
    value: v.value,
    type: v.type,
    [f.renderType]: v.renderType,
    position: v.position,
    filterable: v.filterable,
    searchable: v.searchable,
    mandatory: v.mandatory,
    [f.valueType]: v.valueType,
    [f.group]: g
      ? {
          id: g.id,
          name: g.name,
          position: f.groupPositionAsText ? String(g.position) : g.position,
          model: { id: g.model.id, label: g.model.label },
          type: g.type,
        }
      : null,
    options: v.options.map((o) => ({ id: o.id, label: o.label, value: o.value, position: o.position })),
    [f.displayValue]: v.displayValue,
  };
}

/**
 * A piece of a row's JSON text: a constant JSON text (folded into the text around it), or an SQL
 * expression whose value is JSON text, never NULL.
 */
type JsonPiece = { readonly json: string } | { readonly sql: string };

const sqlText = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** an SQL value as JSON text, as row_to_json writes it (to_json is its writer of one value) */
const anyJson = (sql: string) => `COALESCE(to_json(${sql})::text, 'null')`;

/**
 * The SQL forms of sources over a row aliased `alias`, each as JSON text; nested rows get aliases
 * of their own. An object is its keys' texts put together by `||`, not row_to_json over a
 * sub-select: PostgreSQL then runs no sub-plan for an object over the same row (the debtor), reads
 * no tuple it first formed, and folds constant keys and values into one literal; a boolean, a
 * date-time or a json value is written without to_json's per-value look-up of its type. The text is
 * the one row_to_json wrote, byte for byte (compact; a jsonb value as PostgreSQL prints it).
 */
class ProjectionSql {
  private aliases = 0;
  constructor(
    private readonly form: ProjectionForm,
    private readonly customFields: boolean,
  ) {}

  private alias(): string {
    this.aliases += 1;
    return `p${this.aliases}`;
  }

  /** `keys` over `alias` as one compact JSON object's text (never NULL) */
  object(entity: TargetEntity, keys: ProjectionKeys, alias: string): string {
    const pieces: JsonPiece[] = [];
    let first = true;
    for (const [key, source] of Object.entries(keys)) {
      pieces.push({ json: `${first ? '{' : ','}${quoted(key)}:` });
      pieces.push(this.value(entity, source, alias));
      first = false;
    }
    pieces.push({ json: first ? '{}' : '}' });
    return joined(pieces);
  }

  value(entity: TargetEntity, source: ProjectionSource, alias: string): JsonPiece {
    if (typeof source !== 'string') {
      if ('constant' in source) return { json: JSON.stringify(source.constant) };
      if ('relation' in source) return { sql: this.relation(entity, source.relation, source.keys, alias) };
      if ('object' in source) return { sql: this.object(entity, source.object, alias) };
      if ('equals' in source) {
        const v = this.scalarSql(entity, source.equals, alias);
        return {
          sql: `CASE WHEN ${v} = ${literal(source.value)} THEN ${sqlText(JSON.stringify(source.ifEqual))} ELSE ${sqlText(JSON.stringify(source.ifNot))} END`,
        };
      }
      const field = fieldOf(entity, source.customFields);
      if (field.kind !== 'customFields') throw new Error(`${entity.type}.${source.customFields} is not custom fields`);
      return this.customFields
        ? { sql: `${customFieldFormJson(`${alias}.id`, field.model, source.form)}::text` }
        : { json: '[]' };
    }
    const dot = source.indexOf('.');
    if (dot !== -1) {
      const field = fieldOf(entity, source.slice(0, dot));
      const name = source.slice(dot + 1);
      const key = `'${name.replace(/'/g, "''")}'`;
      // a key of an object computed key by key is its own expression; another json value is computed and read
      const own = field.kind === 'computed' && field.keys && Object.hasOwn(field.keys, name) ? field.keys[name] : undefined;
      if (own) return { sql: anyJson(`(${own(alias)})`) };
      if (field.kind === 'computed') return { sql: `COALESCE(((${field.sql(alias)})::jsonb->${key})::text, 'null')` };
      if (field.kind === 'scalar')
        return { sql: `COALESCE((${alias}.${ident(columnOf(source.slice(0, dot), field))}->${key})::text, 'null')` };
      throw new Error(`${entity.type}.${source}: only a json field's keys are projected by path`);
    }
    const field = fieldOf(entity, source);
    switch (field.kind) {
      case 'scalar': {
        const col = `${alias}.${ident(columnOf(source, field))}`;
        if (field.type === 'decimal') return { sql: anyJson(`${col}::float8`) };
        // to_char writes digits, '-', ':' and a space: nothing JSON escapes
        if (field.type === 'date') return { sql: `COALESCE('"' || to_char(${col}, 'YYYY-MM-DD') || '"', 'null')` };
        if (field.type === 'datetime') return { sql: `COALESCE('"' || ${dateTimeSql(col)} || '"', 'null')` };
        if (field.type === 'boolean') return { sql: `CASE WHEN ${col} THEN 'true' WHEN NOT ${col} THEN 'false' ELSE 'null' END` };
        if (field.type === 'json') return { sql: `COALESCE(${col}::text, 'null')` };
        return { sql: anyJson(col) };
      }
      case 'computed':
        if (field.type === 'datetime') return { sql: `COALESCE('"' || ${dateTimeSql(field.sql(alias))} || '"', 'null')` };
        return { sql: anyJson(`(${field.sql(alias)})`) };
      case 'customFields':
        throw new Error(`${entity.type}.${source}: project custom fields with their form`);
      default:
        return { sql: this.relation(entity, source, shapeKeys(field.schema, this.form), alias) };
    }
  }

  /** a field's SQL value (not JSON): what an `equals` source compares */
  private scalarSql(entity: TargetEntity, name: string, alias: string): string {
    const field = fieldOf(entity, name);
    if (field.kind === 'scalar') return `${alias}.${ident(columnOf(name, field))}`;
    if (field.kind === 'computed') return `(${field.sql(alias)})`;
    throw new Error(`${entity.type}.${name}: only a field's own value is compared`);
  }

  private relation(entity: TargetEntity, name: string, keys: ProjectionKeys, alias: string): string {
    const field = fieldOf(entity, name);
    if (!isRelation(field)) throw new Error(`${entity.type}.${name} is not a relation`);
    const target = field.target();
    const ra = this.alias();
    const table = ident(target.table);
    const tenant = `${ra}.environment_id = $1`;
    const extra = field.kind !== 'ref' && field.where ? ` AND ${field.where(ra)}` : '';
    if (field.kind === 'ref') {
      const fk = `${alias}.${ident(field.column)}`;
      // an empty reference runs no sub-query (most references of most rows are empty)
      return `CASE WHEN ${fk} IS NULL THEN 'null' ELSE COALESCE((SELECT ${this.object(target, keys, ra)} FROM ${table} ${ra} WHERE ${ra}.id = ${fk} AND ${tenant}), 'null') END`;
    }
    if (field.kind === 'one') {
      return `COALESCE((SELECT ${this.object(target, keys, ra)} FROM ${table} ${ra} WHERE ${ra}.${ident(field.remote)} = ${alias}.id AND ${tenant}${extra} LIMIT 1), 'null')`;
    }
    const order = field.orderBy ? field.orderBy(ra) : `${ra}.id`;
    let from: string;
    if (field.through) {
      const la = this.alias();
      from = `${ident(field.through.table)} ${la} JOIN ${table} ${ra} ON ${ra}.id = ${la}.${ident(field.through.targetColumn)} AND ${tenant}
               WHERE ${la}.${ident(field.remote)} = ${alias}.id AND ${la}.environment_id = $1${extra}`;
    } else {
      from = `${table} ${ra} WHERE ${ra}.${ident(field.remote)} = ${alias}.id AND ${tenant}${extra}`;
    }
    // An ordered aggregate sets up its sort for every row, rows or none: most rows of a page have
    // none (no interests, no contacts), and a probe that stops at the first row costs them less than that set-up
    return `CASE WHEN EXISTS (SELECT 1 FROM ${from}) THEN (SELECT '[' || string_agg(${this.object(target, keys, ra)}, ',' ORDER BY ${order}) || ']' FROM ${from}) ELSE '[]' END`;
  }
}

/** pieces as one SQL text expression, neighbouring constants as one literal */
function joined(pieces: readonly JsonPiece[]): string {
  const out: string[] = [];
  let constant = '';
  for (const piece of pieces) {
    if ('json' in piece) constant += piece.json;
    else {
      if (constant) out.push(sqlText(constant));
      constant = '';
      out.push(piece.sql);
    }
  }
  if (constant) out.push(sqlText(constant));
  if (out.length === 1) return `${out[0]}::text`;
  return `(${out.join(' || ')})`;
}

/** a key as its JSON text; a key JSON would escape is refused (keys are declared, never a caller's) */
function quoted(key: string): string {
  if (key !== JSON.stringify(key).slice(1, -1) || key.length > 63) throw new Error(`unsafe projection key ${key}`);
  return `"${key}"`;
}

const made = new WeakSet<object>();

/** Whether a value is a projection made by entityProjection (a procedure's input names one). */
export function isEntityProjection(v: unknown): v is EntityProjection {
  return typeof v === 'object' && v !== null && made.has(v);
}

/**
 * The output check of a page made by PostgreSQL: the first item (every item where
 * CHECK_EVERY_PAGE_ITEM holds) is a JSON object with the projection's keys in its order.
 */
export function checkProjected(projection: EntityProjection, items: readonly string[], everyItem: boolean): void {
  const n = everyItem ? items.length : Math.min(items.length, 1);
  for (let i = 0; i < n; i += 1) {
    const keys = topLevelKeys(items[i] as string) ?? [];
    if (keys.length !== projection.keys.length || keys.some((k, j) => k !== projection.keys[j])) {
      throw new Error(`a projected ${projection.entity.type} has the keys ${keys.join(', ')}, not its projection's`);
    }
  }
}

const QUOTE = 34;
const BACKSLASH = 92;

/**
 * The keys of a JSON object's top level, in their order (repeated ones as often as they come), read
 * without building the object: the output check parsed a whole record (1.7 kB, nested) for its keys on
 * every read by id. null when the text is not an object. For JSON that PostgreSQL made (well-formed).
 */
export function topLevelKeys(text: string): string[] | null {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 32) i += 1;
  if (text[i] !== '{') return null;
  const keys: string[] = [];
  let depth = 0;
  let expectKey = false;
  for (; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      let escaped = false;
      for (i += 1; i < text.length; i += 1) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) {
          escaped = true;
          i += 1;
        } else if (d === QUOTE) break;
      }
      if (depth === 1 && expectKey) {
        keys.push(escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i));
        expectKey = false;
      }
    } else if (c === 123 || c === 91) {
      // { or [
      depth += 1;
      expectKey = c === 123 && depth === 1;
    } else if (c === 125 || c === 93) {
      depth -= 1;
    } else if (c === 44 && depth === 1) {
      // , between the top level's members
      expectKey = true;
    }
  }
  return keys;
}

/** A projection of `entity`'s rows: `keys` in the wire's order, `form` for what they embed. */
export function entityProjection(entity: TargetEntity, keys: ProjectionKeys, form: ProjectionForm): EntityProjection {
  const sources = Object.values(keys);
  const cf = sources.find((s) => typeof s === 'object' && 'customFields' in s) as { customFields: string } | undefined;
  const cfField = cf ? fieldOf(entity, cf.customFields) : undefined;
  let read: ((row: Record<string, unknown>) => Record<string, unknown>) | null = null;
  const sql: [string | null, string | null] = [null, null];
  const projection: EntityProjection = {
    entity,
    keys: Object.keys(keys),
    customFieldsModel: cfField?.kind === 'customFields' ? cfField.model : null,
    read(row) {
      // compiled on first use: relations name their targets through thunks resolved once every module has loaded
      read ??= objectReader(entity, keys, form);
      return read(row as Record<string, unknown>);
    },
    sql(customFields) {
      const i = customFields ? 1 : 0;
      sql[i] ??= new ProjectionSql(form, customFields).object(entity, keys, 't');
      return sql[i];
    },
    without(names) {
      if (!names.length) return this;
      return entityProjection(entity, Object.fromEntries(Object.entries(keys).filter(([k]) => !names.includes(k))), form);
    },
  };
  made.add(projection);
  return projection;
}
