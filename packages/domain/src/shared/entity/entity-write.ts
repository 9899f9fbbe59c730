import { tableIdent, type TenantReader } from '@bo/db';
import { z } from 'zod';
import { customFieldValuesSchema } from '../../customfields/custom-field-values.write.js';
import type { AnyEntity, Entity } from './define-entity.js';
import { type AnyField, columnOf, type CustomFieldsField, type RefField, type ScalarField } from './fields.js';

/**
 * Writes declared once, like reads: an entity's write schemas and the columns a write sets are
 * derived from its field table. A field is written when it is writable and its kind has a write
 * form: a scalar (its type's default schema, or the `input` it declares), a reference (`{id}` or
 * null under its name, or the bare id as `<name>Id` with `writeAs: 'id'`, its column the declared
 * one), custom-field values, and a relation or json value that declares its `input`. A create
 * must give the `required` fields; every other field may be left out (its column's default).
 */

type FieldMap = Record<string, AnyField>;

const reference = z.object({ id: z.string().min(1) });
type Reference = z.infer<typeof reference>;
type Schema<T> = z.ZodType<T, T>;

/** The write schema of one field, as its type says. */
type FieldInput<F> = F extends { readonly input: infer S extends z.ZodType }
  ? S
  : F extends { readonly kind: 'ref'; readonly writeAs: 'id' }
    ? Schema<string | null>
    : F extends RefField
      ? Schema<Reference | null>
      : F extends CustomFieldsField
        ? z.ZodType<
            Exclude<z.infer<typeof customFieldValuesSchema>, undefined>,
            Exclude<z.input<typeof customFieldValuesSchema>, undefined>
          >
        : F extends ScalarField<infer T>
          ? F extends { readonly type: 'json' }
            ? never
            : Schema<T>
          : never;

/** The name a write gives the field by: a reference written as a bare id is `<name>Id`. */
type InputName<K extends string, F> = F extends { readonly kind: 'ref'; readonly writeAs: 'id' } ? `${K}Id` : K;

type WritableKeys<F extends FieldMap> = {
  [K in keyof F & string]: F[K] extends { readonly writable: false } ? never : [FieldInput<F[K]>] extends [never] ? never : K;
}[keyof F & string];

/** The create shape: required fields as they are, the others optional. */
export type CreateShape<F extends FieldMap> = {
  [K in WritableKeys<F> as InputName<K, F[K]>]: F[K] extends { readonly required: true }
    ? FieldInput<F[K]>
    : z.ZodOptional<FieldInput<F[K]>>;
};
/** The update shape: every field optional (left out, it keeps its value). */
export type UpdateShape<F extends FieldMap> = {
  [K in WritableKeys<F> as InputName<K, F[K]>]: z.ZodOptional<FieldInput<F[K]>>;
};

/** The default write schema of a scalar by its storage type; null where the field is nullable. */
function scalarInput(name: string, field: ScalarField): z.ZodType | undefined {
  let schema: z.ZodType;
  switch (field.type) {
    case 'string':
      schema = field.required ? z.string().trim().min(1, `${name} must not be empty`).max(255) : z.string().max(10_000);
      break;
    case 'id':
      schema = z.string().min(1).max(200);
      break;
    case 'boolean':
      schema = z.boolean();
      break;
    case 'integer':
      schema = z.number().int();
      break;
    case 'number':
    case 'decimal':
      schema = z.number().finite();
      break;
    default:
      // dates, date-times and json carry their own write form: declared with `input`
      return undefined;
  }
  return !field.required && field.schema.safeParse(null).success ? schema.nullable() : schema;
}

/** The write schema of a field and the name a write gives it by; undefined when a write never names it. */
function writeFormOf(name: string, field: AnyField): [string, z.ZodType] | undefined {
  if (!field.writable) return undefined;
  if (field.kind === 'ref') {
    if (field.writeAs === 'id') return [`${name}Id`, field.input ?? z.string().min(1).nullable()];
    return [name, field.input ?? reference.nullable()];
  }
  if (field.input) return [name, field.input];
  if (field.kind === 'customFields') return [name, customFieldValuesSchema.unwrap()];
  if (field.kind === 'scalar') {
    const schema = scalarInput(name, field);
    return schema ? [name, schema] : undefined;
  }
  return undefined;
}

export interface WriteSchemas<F extends FieldMap> {
  create: z.ZodObject<CreateShape<F>>;
  update: z.ZodObject<UpdateShape<F>>;
}

/** The entity's create and update schemas, derived from its field table. */
export function writeSchemasOf<F extends FieldMap>(entity: Entity<F>): WriteSchemas<F> {
  const create: Record<string, z.ZodType> = {};
  const update: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(entity.fields as FieldMap)) {
    const form = writeFormOf(name, field);
    if (!form) continue;
    const [key, schema] = form;
    const required = field.kind === 'scalar' && field.required === true;
    create[key] = required ? schema : schema.optional();
    update[key] = schema.optional();
  }
  return {
    create: z.object(create) as unknown as z.ZodObject<CreateShape<F>>,
    update: z.object(update) as unknown as z.ZodObject<UpdateShape<F>>,
  };
}

/** How a write's value lands in its column, per entity: built once. */
type ColumnWrite = [inputName: string, column: string, value: (v: unknown) => unknown];
const columnWrites = new WeakMap<object, ColumnWrite[]>();

function columnWritesOf(entity: AnyEntity): ColumnWrite[] {
  const known = columnWrites.get(entity);
  if (known) return known;
  const out: ColumnWrite[] = [];
  for (const [name, field] of Object.entries(entity.fields as FieldMap)) {
    if (!field.writable) continue;
    if (field.kind === 'ref') {
      if (field.writeAs === 'id') out.push([`${name}Id`, field.column, (v) => v]);
      else out.push([name, field.column, (v) => (v === null ? null : (v as Reference).id)]);
    } else if (field.kind === 'scalar' && writeFormOf(name, field)) {
      // json goes as its text: the driver would send an array as a PostgreSQL array
      out.push([name, columnOf(name, field), field.type === 'json' ? (v) => (v === null ? null : JSON.stringify(v)) : (v) => v]);
    }
  }
  columnWrites.set(entity, out);
  return out;
}

/**
 * The columns a write sets, by column name (TenantReader.insert and update): each scalar and
 * reference the input names, a reference as its foreign key. Fields left out are left out.
 */
export function columnsOfWrite(entity: AnyEntity, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, column, value] of columnWritesOf(entity)) {
    const v = input[name];
    if (v !== undefined) out[column] = value(v);
  }
  return out;
}

const exclusives = new WeakMap<object, [string, string][]>();

/**
 * Where the write set an `exclusive` boolean true, the environment's other rows lose it: one
 * statement each, queued with the write (the one main company profile).
 */
export async function clearExclusive(
  sql: TenantReader,
  entity: AnyEntity,
  id: string,
  input: Readonly<Record<string, unknown>>,
  now: Date,
): Promise<void> {
  let fields = exclusives.get(entity);
  if (!fields) {
    fields = [];
    for (const [name, field] of Object.entries(entity.fields as FieldMap)) {
      if (field.kind === 'scalar' && field.exclusive) fields.push([name, columnOf(name, field)]);
    }
    exclusives.set(entity, fields);
  }
  for (const [name, column] of fields) {
    if (input[name] !== true) continue;
    await sql.queue(
      `UPDATE ${tableIdent(entity.table)} SET ${tableIdent(column)} = false, updated_at = $3
        WHERE environment_id = $1 AND ${tableIdent(column)} AND id <> $2`,
      [id, now],
    );
  }
}
