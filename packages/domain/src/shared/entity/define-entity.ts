import type { Condition, SortKey, SqlField, SqlModel, SqlRelation, TenantSql } from '@bo/db';
import { z } from 'zod';
import { customFieldsFilter } from '../../customfields/custom-field.sql.js';
import type { ModuleName } from '../rights.js';
import type { UserContext } from '../../trpc.js';
import { type AnyField, columnOf, type ScalarType, snakeCase, type TargetEntity } from './fields.js';
import { type EntityLoader, entityLoader } from './entity-loader.js';

type FieldMap = Record<string, AnyField>;

/** The row type of a field map: each field's output schema, inferred. */
export type RowOf<F extends FieldMap> = { [K in keyof F]: F[K] extends { schema: z.ZodType<infer T> } ? T : never };

export interface EntityDeclaration<F extends FieldMap> {
  /** entity type of ids and events: `organization` */
  type: string;
  table: string;
  /** the module right that guards it */
  module: ModuleName;
  fields: F;
  /** order of a list that asks for none */
  defaultSort?: SortKey[];
  /**
   * false where no index can serve the default order (a view): its unfiltered pages are
   * planned every time. Elsewhere an index on (environment_id, the order's columns) must serve
   * it (a test checks every entity), and one prepared plan serves every environment's page.
   */
  indexedOrder?: false;
  /** the field a restricted relation shows beside the id (rights across modules) */
  nameField?: keyof F & string;
  /** rows the caller may see at all, AND-ed into every list and checked on every read by id */
  scope?: (ctx: UserContext) => Condition;
  /** what the entity's events carry, when not the row itself (a compact form of a part of it) */
  eventData?: (row: RowOf<F>) => Record<string, unknown>;
}

export interface Entity<F extends FieldMap = FieldMap> extends TargetEntity {
  readonly type: string;
  readonly table: string;
  readonly module: ModuleName;
  readonly fields: F;
  readonly nameField?: string;
  readonly defaultSort: SortKey[];
  /** an index on (environment_id, the default order's columns) serves the default order */
  readonly indexedOrder: boolean;
  readonly scope?: (ctx: UserContext) => Condition;
  readonly eventData?: (row: RowOf<F>) => Record<string, unknown>;
  /** the output schema; its z.infer is the row type */
  readonly schema: z.ZodType<RowOf<F>, RowOf<F>>;
  /** the list compiler's model, keyed by domain field names */
  readonly sqlModel: SqlModel;
  /** loads rows by id or by a compiled page, in a fixed number of statements */
  readonly loader: EntityLoader<RowOf<F>>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds entities of any field map
export type AnyEntity = Entity<any>;

export type EntityRow<E extends AnyEntity> = z.infer<E['schema']>;

/** The fields of any entity, as the generic machinery walks them. */
export function fieldsOf(entity: { fields: Readonly<Record<string, AnyField>> }): [string, AnyField][] {
  return Object.entries(entity.fields as Record<string, AnyField>);
}

const FILTER_TYPES: Record<ScalarType, SqlField['type'] | null> = {
  id: 'id',
  string: 'string',
  integer: 'integer',
  number: 'number',
  decimal: 'number',
  boolean: 'boolean',
  datetime: 'datetime',
  date: 'date',
  json: null,
};

const sqlModels = new WeakMap<TargetEntity, SqlModel>();

/** The list compiler's model of an entity, built once per entity and shared by every relation to it. */
export function sqlModelOf(entity: TargetEntity): SqlModel {
  const cached = sqlModels.get(entity);
  if (cached) return cached;
  const fields: Record<string, SqlField> = {};
  const relations: Record<string, SqlRelation> = {};
  const model: SqlModel = { table: entity.table, fields, relations };
  sqlModels.set(entity, model);
  for (const [name, field] of Object.entries(entity.fields)) {
    if (!field.filter && !field.sort) continue;
    switch (field.kind) {
      case 'scalar': {
        const type = FILTER_TYPES[field.type];
        if (type) fields[name] = { column: columnOf(name, field), type, sortable: field.sort };
        break;
      }
      case 'ref': {
        const target = field.target();
        relations[name] = {
          model: () => sqlModelOf(target),
          kind: 'one',
          local: field.column,
          remote: 'id',
          module: target.module,
        };
        // the foreign key itself filters too, as `<name>Id`
        fields[`${name}Id`] = { column: field.column, type: 'id', sortable: true };
        break;
      }
      case 'one': {
        const target = field.target();
        relations[name] = {
          model: () => sqlModelOf(target),
          kind: 'one',
          local: 'id',
          remote: field.remote,
          module: target.module,
          ...(field.where ? { where: field.where } : {}),
        };
        break;
      }
      case 'many': {
        const target = field.target();
        if (field.through) {
          const through = field.through;
          // the link row stands for the target: its `id` is the target's id, and the target's fields go one step further
          const link: SqlModel = {
            table: through.table,
            fields: { id: { column: through.targetColumn, type: 'id' } },
            relations: {
              [target.type]: { model: () => sqlModelOf(target), kind: 'one', local: through.targetColumn, remote: 'id' },
            },
          };
          relations[name] = { model: () => link, kind: 'many', local: 'id', remote: field.remote, module: target.module };
        } else {
          relations[name] = {
            model: () => sqlModelOf(target),
            kind: 'many',
            local: 'id',
            remote: field.remote,
            module: target.module,
            ...(field.where ? { where: field.where } : {}),
          };
        }
        break;
      }
      case 'customFields':
        model.customFields = customFieldsFilter(field.model);
        break;
      case 'computed': {
        // filterable or sortable when declared so: compiled as its expression
        const type = FILTER_TYPES[field.type];
        if (type) fields[name] = { column: name, type, expression: field.sql, sortable: field.sort };
        break;
      }
    }
  }
  return model;
}

const byTable = new Map<string, AnyEntity>();
const bySchema = new WeakMap<object, AnyEntity>();

/** The entity whose output schema this is (a procedure's `.output()` names the entity it returns). */
export function entityOfSchema(schema: unknown): AnyEntity | undefined {
  return schema && typeof schema === 'object' ? bySchema.get(schema) : undefined;
}

/**
 * The entity declared for a table (the fullest, where an area also declares a small
 * stand-in for another's): what a change to one of its rows records in its event.
 */
export function entityOfTable(table: string): AnyEntity | undefined {
  return byTable.get(table);
}

/** Every entity declared so far (all of them once the router has loaded): tests walk them. */
export function declaredEntities(): AnyEntity[] {
  return [...declared];
}
/** How many entities are declared (without copying the list: asked on every write). */
export function declaredEntityCount(): number {
  return declared.length;
}
const declared: AnyEntity[] = [];

/**
 * Declares an entity once: its fields in domain terms, their columns, relations
 * and flags. The list model, the page loader and the output schema are derived here.
 */
export function defineEntity<F extends FieldMap>(decl: EntityDeclaration<F>): Entity<F> {
  const shape = Object.fromEntries(Object.entries(decl.fields).map(([name, field]) => [name, field.schema]));
  const schema = z.object(shape) as unknown as z.ZodType<RowOf<F>, RowOf<F>>;
  const entity: Entity<F> = {
    type: decl.type,
    table: decl.table,
    module: decl.module,
    fields: decl.fields,
    ...(decl.nameField ? { nameField: decl.nameField } : {}),
    defaultSort: decl.defaultSort ?? [{ path: 'createdAt', dir: 'asc' }],
    indexedOrder: decl.indexedOrder !== false,
    ...(decl.scope ? { scope: decl.scope } : {}),
    ...(decl.eventData ? { eventData: decl.eventData } : {}),
    schema,
    get sqlModel() {
      return sqlModelOf(entity);
    },
    loader: undefined as unknown as EntityLoader<RowOf<F>>,
  };
  (entity as { loader: EntityLoader<RowOf<F>> }).loader = entityLoader<RowOf<F>>(entity);
  bySchema.set(schema, entity);
  declared.push(entity);
  const known = byTable.get(entity.table);
  if (!known || Object.keys(known.fields).length < Object.keys(entity.fields).length) byTable.set(entity.table, entity);
  return entity;
}

/** The columns of a field map by name (write paths use them for plain scalar updates). */
export function scalarColumns(fields: FieldMap): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, field] of Object.entries(fields)) if (field.kind === 'scalar') out.set(name, columnOf(name, field));
  return out;
}

export { snakeCase };
export type { TenantSql };
