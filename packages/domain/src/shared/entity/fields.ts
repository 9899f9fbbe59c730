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
}

/** To-one through a foreign key on this table: `relationType` over `relation_type_id`. */
export interface RefField<T = unknown> extends Flags, Guard {
  readonly kind: 'ref';
  readonly target: () => TargetEntity;
  /** the foreign-key column on this table */
  readonly column: string;
  /** what a read embeds of the target: its keys name the target's fields */
  readonly schema: z.ZodType<T>;
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
}

export type AnyField = ScalarField | RefField | OneField | ManyField | CustomFieldsField | ComputedField;

type Opts = Partial<Flags> & { column?: string; references?: () => TargetEntity };

const flags = (o: Opts, defaults: Partial<Flags> = {}): Flags => ({
  filter: o.filter ?? defaults.filter ?? true,
  sort: o.sort ?? defaults.sort ?? true,
  writable: o.writable ?? defaults.writable ?? true,
});

function scalar<T>(type: ScalarType, schema: z.ZodType<T>, o: Opts = {}): ScalarField<T> {
  return {
    kind: 'scalar',
    type,
    schema,
    ...(o.column ? { column: o.column } : {}),
    ...(o.references ? { references: o.references } : {}),
    ...flags(o),
  };
}

/** Builders; every scalar is nullable unless it is `required`. */
export const f = {
  id: (o: Opts = {}) => scalar('id', z.string(), { writable: false, ...o }),
  string: (o: Opts = {}) => scalar('string', z.string().nullable(), o),
  requiredString: (o: Opts = {}) => scalar('string', z.string(), o),
  integer: (o: Opts = {}) => scalar('integer', z.number().int().nullable(), o),
  requiredInteger: (o: Opts = {}) => scalar('integer', z.number().int(), o),
  number: (o: Opts = {}) => scalar('number', z.number().nullable(), o),
  /** exact decimals are read as numbers with the column's scale */
  decimal: (o: Opts = {}) => scalar('decimal', z.number().nullable(), o),
  boolean: (o: Opts = {}) => scalar('boolean', z.boolean(), o),
  datetime: (o: Opts = {}) => scalar('datetime', z.date().nullable(), o),
  requiredDatetime: (o: Opts = {}) => scalar('datetime', z.date(), o),
  /** a calendar date, `YYYY-MM-DD` */
  date: (o: Opts = {}) => scalar('date', z.string().nullable(), o),
  json: <T>(schema: z.ZodType<T>, o: Opts = {}) => scalar('json', schema, { filter: false, sort: false, ...o }),
  /** set by the service, never by a write */
  createdAt: () => scalar('datetime', z.date(), { writable: false }),
  updatedAt: () => scalar('datetime', z.date(), { writable: false }),

  ref<S extends z.ZodType>(
    target: () => TargetEntity,
    schema: S,
    o: Omit<RelationOpts, 'column'> & { column: string },
  ): RefField<z.infer<S> | null> {
    return {
      kind: 'ref',
      target,
      column: o.column,
      schema: embedded(schema, o).nullable(),
      restricted: o.restricted ?? false,
      ...flags(o, { sort: false }),
    };
  },
  one<S extends z.ZodType>(
    target: () => TargetEntity,
    schema: S,
    o: RelationOpts & { remote: string; where?: (alias: string) => string },
  ): OneField<z.infer<S> | null> {
    return {
      kind: 'one',
      target,
      remote: o.remote,
      schema: embedded(schema, o).nullable(),
      restricted: o.restricted ?? false,
      ...(o.where ? { where: o.where } : {}),
      ...flags(o, { sort: false }),
    };
  },
  many<S extends z.ZodType>(
    target: () => TargetEntity,
    schema: S,
    o: RelationOpts & {
      remote: string;
      through?: { table: string; targetColumn: string };
      where?: (alias: string) => string;
      orderBy?: (alias: string) => string;
    },
  ): ManyField<z.infer<S>[]> {
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
    };
  },
  customFields<S extends z.ZodType>(model: string, schema: S): CustomFieldsField<z.infer<S>[]> {
    return { kind: 'customFields', model, schema: z.array(schema), filter: true, sort: false, writable: true };
  },
  computed<S extends z.ZodType>(
    type: ScalarType,
    schema: S,
    sql: (alias: string) => string,
    o: Opts = {},
  ): ComputedField<z.infer<S>> {
    return {
      kind: 'computed',
      type,
      schema: schema as z.ZodType<z.infer<S>>,
      sql,
      ...flags(o, { filter: false, sort: false, writable: false }),
    };
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
