import type { FieldType } from '@bo/db';
import { z } from 'zod';
import type { ModuleName } from '../rights.js';

/**
 * The field kinds an entity is declared with. Each field carries its zod output
 * schema (so the entity's row type is inferred) and what the storage, the list
 * compiler and the write path need: its column, whether it filters and sorts,
 * whether a write may set it, and for references the entity it points at.
 */

/** Storage type of a scalar: what the list compiler coerces filter values to. */
export type ScalarType = FieldType | 'decimal' | 'json';

/** A target entity, seen through the little the field needs (kept untyped: entities refer to each other in cycles). */
export interface TargetEntity {
  readonly type: string;
  readonly table: string;
  readonly module: ModuleName;
  readonly fields: Readonly<Record<string, AnyField>>;
  readonly nameField?: string;
}

interface Flags {
  filter: boolean;
  sort: boolean;
  writable: boolean;
  /**
   * what a write gives for the field, when the default of its kind is not right (see entity-write.ts);
   * a relation to one or many, or a json value, is written only where it declares one
   */
  input?: z.ZodType;
}

/** A relation into another module: without that module's read right the caller sees `{id, name}` only. */
interface Guard {
  readonly restricted: boolean;
}

/** What a restricted relation shows of its target. */
export const restrictedReference = z.object({ id: z.string(), name: z.string().nullable() });

type RelationOpts = Opts & { restricted?: boolean };

/** The embedded shape, widened to the restricted form where the relation crosses into another module. */
function embedded<S extends z.ZodType>(schema: S, o: RelationOpts): z.ZodType<z.infer<S>> {
  return (o.restricted ? z.union([schema, restrictedReference]) : schema) as unknown as z.ZodType<z.infer<S>>;
}

export interface ScalarField<T = unknown> extends Flags {
  readonly kind: 'scalar';
  readonly type: ScalarType;
  /** column name; the snake_case of the field name when absent */
  readonly column?: string;
  readonly schema: z.ZodType<T>;
  /** an id kept as a plain value that must name a row of this entity (checked on every write) */
  readonly references?: () => TargetEntity;
  /** a create must give it (it has no default) */
  readonly required?: boolean;
  /** a boolean at most one row of the environment holds true (see Opts) */
  readonly exclusive?: boolean;
}

/** To-one through a foreign key on this table: `relationType` over `relation_type_id`. */
export interface RefField<T = unknown> extends Flags, Guard {
  readonly kind: 'ref';
  readonly target: () => TargetEntity;
  /** the foreign-key column on this table */
  readonly column: string;
  /** what a read embeds of the target: its keys name the target's fields */
  readonly schema: z.ZodType<T>;
  /** how a write names the target: `{id}` under the field's name (the default), or the bare id as `<name>Id` */
  readonly writeAs?: 'object' | 'id';
}

/** To-one through a foreign key on the target: an address of a kind, a profile. */
export interface OneField<T = unknown> extends Flags, Guard {
  readonly kind: 'one';
  readonly target: () => TargetEntity;
  /** the column on the target pointing at this row */
  readonly remote: string;
  readonly where?: (alias: string) => string;
  readonly schema: z.ZodType<T>;
}

/** To-many: rows of the target pointing at this one, or linked through a link table. */
export interface ManyField<T = unknown> extends Flags, Guard {
  readonly kind: 'many';
  readonly target: () => TargetEntity;
  /** the column on the target (or on the link table) pointing at this row */
  readonly remote: string;
  /** link table: `remote` is its column pointing here, `targetColumn` its column pointing at the target */
  readonly through?: { table: string; targetColumn: string };
  readonly where?: (alias: string) => string;
  /** ORDER BY of the embedded list over the target aliased by the argument */
  readonly orderBy?: (alias: string) => string;
  readonly schema: z.ZodType<T>;
}

/** Custom-field values of a model (organization, person, project, sale, hours). */
export interface CustomFieldsField<T = unknown> extends Flags {
  readonly kind: 'customFields';
  readonly model: string;
  readonly schema: z.ZodType<T>;
}

/** A value computed in SQL over the row aliased by the argument (a count, a flag). */
export interface ComputedField<T = unknown> extends Flags {
  readonly kind: 'computed';
  readonly type: ScalarType;
  readonly sql: (alias: string) => string;
  readonly schema: z.ZodType<T>;
  /** a json object declared by its keys (computedObject): each key's own SQL, for a projection reading one key */
  readonly keys?: Readonly<Record<string, (alias: string) => string>>;
}

export type AnyField = ScalarField | RefField | OneField | ManyField | CustomFieldsField | ComputedField;

type Opts = Partial<Flags> & {
  column?: string;
  references?: () => TargetEntity;
  /** a create must give it, though the column may hold null */
  required?: true;
  /** at most one row of the environment holds true: a write that sets it clears it on the others */
  exclusive?: true;
};

/** What the type of a declared field keeps of its options: a write never names a field declared not writable. */
type NotWritable = { readonly writable: false };
type Marks<O> = O extends { writable: false } ? NotWritable : unknown;
/** The write schema a field declares, kept in its type so the derived write schemas are typed. */
type Input<O> = O extends { input: infer S extends z.ZodType } ? { readonly input: S } : unknown;
type Declared<O> = Marks<O> & Input<O> & (O extends { required: true } ? Required : unknown);
const notWritable = { writable: false } as const;

const flags = (o: Opts, defaults: Partial<Flags> = {}): Flags => ({
  filter: o.filter ?? defaults.filter ?? true,
  sort: o.sort ?? defaults.sort ?? true,
  writable: o.writable ?? defaults.writable ?? true,
  ...(o.input ? { input: o.input } : {}),
});

function scalar<T, O extends Opts>(type: ScalarType, schema: z.ZodType<T>, o: O, required = false): ScalarField<T> & Declared<O> {
  return {
    kind: 'scalar',
    type,
    schema,
    ...(o.column ? { column: o.column } : {}),
    ...(o.references ? { references: o.references } : {}),
    ...(required || o.required ? { required: true } : {}),
    ...(o.exclusive ? { exclusive: true } : {}),
    ...flags(o),
  } as ScalarField<T> & Declared<O>;
}

/** A field a create must give: its type says so, for the derived create schema. */
type Required = { readonly required: true };

/** Builders; every scalar is nullable unless it is `required`. */
export const f = {
  id: (o: Omit<Opts, 'writable'> = {}): ScalarField<string> & NotWritable => scalar('id', z.string(), { ...o, ...notWritable }),
  string: <O extends Opts = object>(o?: O) => scalar('string', z.string().nullable(), o ?? ({} as O)),
  requiredString: <O extends Opts = object>(o?: O) =>
    scalar('string', z.string(), o ?? ({} as O), !(o?.writable === false)) as ScalarField<string> & Declared<O> & Required,
  integer: <O extends Opts = object>(o?: O) => scalar('integer', z.number().int().nullable(), o ?? ({} as O)),
  requiredInteger: <O extends Opts = object>(o?: O) =>
    scalar('integer', z.number().int(), o ?? ({} as O), !(o?.writable === false)) as ScalarField<number> & Declared<O> & Required,
  number: <O extends Opts = object>(o?: O) => scalar('number', z.number().nullable(), o ?? ({} as O)),
  /** exact decimals are read as numbers with the column's scale */
  decimal: <O extends Opts = object>(o?: O) => scalar('decimal', z.number().nullable(), o ?? ({} as O)),
  /** a create that leaves it out takes the column's default */
  boolean: <O extends Opts = object>(o?: O) => scalar('boolean', z.boolean(), o ?? ({} as O)),
  datetime: <O extends Opts = object>(o?: O) => scalar('datetime', z.date().nullable(), o ?? ({} as O)),
  requiredDatetime: <O extends Opts = object>(o?: O) =>
    scalar('datetime', z.date(), o ?? ({} as O), !(o?.writable === false)) as ScalarField<Date> & Declared<O> & Required,
  /** a calendar date, `YYYY-MM-DD` */
  date: <O extends Opts = object>(o?: O) => scalar('date', z.string().nullable(), o ?? ({} as O)),
  json: <T, O extends Opts = object>(schema: z.ZodType<T>, o?: O) =>
    scalar('json', schema, { filter: false, sort: false, ...(o ?? ({} as O)) }) as ScalarField<T> & Declared<O>,
  /** set by the service, never by a write */
  createdAt: (): ScalarField<Date> & NotWritable => scalar('datetime', z.date(), notWritable),
  updatedAt: (): ScalarField<Date> & NotWritable => scalar('datetime', z.date(), notWritable),

  ref<S extends z.ZodType, O extends Omit<RelationOpts, 'column'> & { column: string; writeAs?: 'object' | 'id' }>(
    target: () => TargetEntity,
    schema: S,
    o: O,
  ): RefField<z.infer<S> | null> & Declared<O> & (O extends { writeAs: 'id' } ? { readonly writeAs: 'id' } : unknown) {
    return {
      kind: 'ref',
      target,
      column: o.column,
      schema: embedded(schema, o).nullable(),
      restricted: o.restricted ?? false,
      ...(o.writeAs ? { writeAs: o.writeAs } : {}),
      ...flags(o, { sort: false }),
    } as RefField<z.infer<S> | null> & Declared<O> & (O extends { writeAs: 'id' } ? { readonly writeAs: 'id' } : unknown);
  },
  one<S extends z.ZodType, O extends RelationOpts & { remote: string; where?: (alias: string) => string }>(
    target: () => TargetEntity,
    schema: S,
    o: O,
  ): OneField<z.infer<S> | null> & Declared<O> {
    return {
      kind: 'one',
      target,
      remote: o.remote,
      schema: embedded(schema, o).nullable(),
      restricted: o.restricted ?? false,
      ...(o.where ? { where: o.where } : {}),
      ...flags(o, { sort: false }),
    } as OneField<z.infer<S> | null> & Declared<O>;
  },
  many<
    S extends z.ZodType,
    O extends RelationOpts & {
      remote: string;
      through?: { table: string; targetColumn: string };
      where?: (alias: string) => string;
      orderBy?: (alias: string) => string;
    },
  >(target: () => TargetEntity, schema: S, o: O): ManyField<z.infer<S>[]> & Declared<O> {
    return {
      kind: 'many',
      target,
      remote: o.remote,
      schema: z.array(embedded(schema, o)),
      restricted: o.restricted ?? false,
      ...(o.through ? { through: o.through } : {}),
      ...(o.where ? { where: o.where } : {}),
      ...(o.orderBy ? { orderBy: o.orderBy } : {}),
      ...flags(o, { sort: false }),
    } as ManyField<z.infer<S>[]> & Declared<O>;
  },
  customFields<S extends z.ZodType>(model: string, schema: S): CustomFieldsField<z.infer<S>[]> {
    return { kind: 'customFields', model, schema: z.array(schema), filter: true, sort: false, writable: true };
  },
  computed<S extends z.ZodType>(
    type: ScalarType,
    schema: S,
    sql: (alias: string) => string,
    o: Opts = {},
  ): ComputedField<z.infer<S>> & { readonly writable: false } {
    return {
      kind: 'computed',
      type,
      schema: schema as z.ZodType<z.infer<S>>,
      sql,
      ...flags(o, { filter: false, sort: false }),
      writable: false,
    };
  },
  /**
   * a json object computed key by key: its keys in order, each an SQL expression over the row.
   * `presets`: rows meeting a preset's condition (its SQL over the row) answer its object as a constant
   * instead: the common case (an organization whose debtor settings were never set) then costs
   * PostgreSQL a test, not the object built key by key (about 2 µs a row); each preset must be what
   * the keys give those rows, which a test of the entity checks.
   */
  computedObject<S extends z.ZodType>(
    schema: S,
    keys: Record<string, (alias: string) => string>,
    o: Opts & { presets?: readonly { when: (alias: string) => string; value: z.infer<S> }[] } = {},
  ): ComputedField<z.infer<S>> & { readonly writable: false } {
    const { presets = [], ...opts } = o;
    for (const preset of presets) schema.parse(preset.value);
    const built = (alias: string) =>
      `json_build_object(${Object.entries(keys)
        .map(([key, value]) => `'${key}', ${value(alias)}`)
        .join(', ')})`;
    const sql =
      presets.length === 0
        ? built
        : (alias: string) =>
            `CASE ${presets
              .map((p) => `WHEN ${p.when(alias)} THEN '${JSON.stringify(p.value).replaceAll("'", "''")}'::json`)
              .join(' ')} ELSE ${built(alias)} END`;
    return { ...f.computed('json', schema, sql, opts), keys };
  },
};

/** `vatNumber` → `vat_number`: the column and v2 naming convention. */
const snakeCases = new Map<string, string>();

/** `vatNumber` → `vat_number`; remembered per name (declared names, called at every write) */
export function snakeCase(name: string): string {
  let out = snakeCases.get(name);
  if (out === undefined) {
    out = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    // names come from declarations and validated inputs; the bound keeps any other use harmless
    if (snakeCases.size < 10_000) snakeCases.set(name, out);
  }
  return out;
}

export function columnOf(name: string, field: ScalarField): string {
  return field.column ?? snakeCase(name);
}
