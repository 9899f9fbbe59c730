import {
  type CompiledList,
  compileList,
  inTransaction,
  type ListQuery,
  ListQueryError,
  prefixLiteral,
  type TenantReader,
} from '@bo/db';
import type { RenderReservation } from '../../rendering/render-pool.js';
import type { UserContext } from '../../trpc.js';
import { BadRequestError, BusinessRuleError, ForbiddenError, NotFoundError, sqlStateOf } from '../errors.js';
import { EventJson, recordEvent, recordEventOfRow } from '../events.js';
import { assertPreconditionChecked, recordTag, withPrecondition } from '../precondition.js';
import { hasRight, MODULES, type ModuleName } from '../rights.js';
import { type AnyEntity, type EntityRow, fieldsOf } from './define-entity.js';
import type { TargetEntity } from './fields.js';
import type { PageSource } from './entity-loader.js';
import type { EntityProjection } from './entity-projection.js';
import { assertEntityReferences, type ReferenceCheck } from './entity-references.js';
import { withDeclaredColumns } from './reference-columns.js';
import { clearExclusive } from './entity-write.js';
import { readDefinitions, readDefinitionsOnce } from '../../customfields/custom-field-values.load.js';
import type { CustomFieldRow } from '../../customfields/custom-field.view.js';

/**
 * What every write works with: the caller, the transaction's tenant reader and the clock's now.
 * Entity writes, custom-field values and events go through `sql`, whichever transaction it is.
 */
export interface SqlWriteContext {
  ctx: UserContext;
  sql: TenantReader;
  now: Date;
  /**
   * true in a transaction of our own (see `ownTransaction` below): its writes are queued and go
   * with the COMMIT, so nothing should be read back in it that PostgreSQL can make itself
   */
  ownTransaction: boolean;
  /**
   * A render process taken before the transaction began (RenderPool.reserve), for the one render the
   * write may do: the wait for a process is not spent holding the write's locks, and a write holding
   * them never waits for a process that writers waiting on those locks hold.
   */
  render?: RenderReservation | undefined;
}

/**
 * A use case's write, declared once for every input: it writes through the tenant reader only
 * (its `run` gets no Prisma transaction, so the compiler holds it to that), in a transaction of
 * our own, pipelined.
 */
export type EntityWrite<Run> = { run: Run };

export type EntityCreate<C> = {
  /** references beyond the entity's own ref fields (nested ids), checked with them before the write */
  references?: (input: C) => ReferenceCheck[];
  /** a render process the write may need, taken before its transaction (see SqlWriteContext.render) */
  reserveRender?: (ctx: UserContext, input: C) => Promise<RenderReservation | undefined>;
} & EntityWrite<(w: SqlWriteContext, input: C) => Promise<string>>;

export type EntityUpdate<U> = {
  references?: (input: U) => ReferenceCheck[];
  /** a render process the write may need, taken before its transaction (see SqlWriteContext.render) */
  reserveRender?: (ctx: UserContext, input: U) => Promise<RenderReservation | undefined>;
  /**
   * Locks that govern the row, taken before the row's own: in the order every other writer of them
   * takes them (hours: their week, which a week's submission takes and then its hours), so the two
   * never wait for each other in a ring (a deadlock, refused as a collision).
   */
  lockFirst?: (w: SqlWriteContext, id: string, input: U) => Promise<void>;
} & EntityWrite<(w: SqlWriteContext, id: string, input: U) => Promise<void>>;

/** deletion; when absent, the row is deleted by id and its dependants follow by cascade */
export type EntityRemove = (w: SqlWriteContext, id: string) => Promise<void>;

export interface ListResult<Row> {
  items: Row[];
  /** the size of the whole filtered collection, when asked for */
  count: number | null;
}

const canReadFor = (ctx: UserContext) => ({
  canRead: (module: string) => hasRight(ctx.principal.rights, module as ModuleName, 'read'),
});

/** nested relations are masked down to this depth (the embedded shapes go two or three deep) */
const MASK_DEPTH = 6;

/**
 * Relations into a module the caller may not read show only the target's id and name (an
 * employee seen from an organization without the hrm right), at every depth: a relation nested
 * in a relation (the customer inside the project inside an hour registration) is masked by the
 * rights of its own module too. A caller who may read every module the entity reaches gets its
 * rows untouched (no walk).
 */
export function restrictRelations<Row>(ctx: UserContext, entity: AnyEntity, rows: Row[]): Row[] {
  const rights = ctx.principal.rights;
  // the common case, a token that reads everything: nothing to mask, no walk
  if (MODULES.every((m) => hasRight(rights, m, 'read'))) return rows;
  const canRead = (module: ModuleName) => hasRight(rights, module, 'read');
  if (!masksAnything(entity, canRead, MASK_DEPTH, new Set())) return rows;
  for (const row of rows as Record<string, unknown>[]) maskRow(entity, row, canRead, MASK_DEPTH);
  return rows;
}

/** Whether restrictRelations would mask anything of the entity's rows for this caller. */
function masksFor(ctx: UserContext, entity: AnyEntity): boolean {
  const rights = ctx.principal.rights;
  if (MODULES.every((m) => hasRight(rights, m, 'read'))) return false;
  return masksAnything(entity, (m) => hasRight(rights, m, 'read'), MASK_DEPTH, new Set());
}

/** whether a relation reachable from the entity (to the depth) leads into a module the caller may not read */
function masksAnything(
  entity: TargetEntity,
  canRead: (m: ModuleName) => boolean,
  depth: number,
  seen: Set<TargetEntity>,
): boolean {
  if (depth === 0 || seen.has(entity)) return false;
  seen.add(entity);
  for (const [, field] of fieldsOf(entity)) {
    if (field.kind !== 'ref' && field.kind !== 'one' && field.kind !== 'many') continue;
    const target = field.target();
    if (!canRead(target.module) || masksAnything(target, canRead, depth - 1, seen)) return true;
  }
  return false;
}

function maskRow(
  entity: TargetEntity,
  row: Record<string, unknown>,
  canRead: (m: ModuleName) => boolean,
  depth: number,
  top = true,
): void {
  for (const [name, field] of fieldsOf(entity)) {
    if (field.kind !== 'ref' && field.kind !== 'one' && field.kind !== 'many') continue;
    const v = row[name];
    if (!v || typeof v !== 'object') continue;
    const target = field.target();
    // at depth, only a relation declared restricted may show {id, name} (its embedded shape admits it);
    // an undeclared one (a VAT class inside an invoice line) is a lookup shown as it is
    if (!canRead(target.module) && (top || field.restricted)) {
      const nameField = target.nameField ?? 'name';
      const mask = (x: Record<string, unknown>) => ({ id: x.id, name: x[nameField] ?? null });
      row[name] = Array.isArray(v) ? v.map((x) => mask(x as Record<string, unknown>)) : mask(v as Record<string, unknown>);
    } else if (depth > 1) {
      for (const x of Array.isArray(v) ? v : [v]) {
        if (x && typeof x === 'object') maskRow(target, x as Record<string, unknown>, canRead, depth - 1, false);
      }
    }
  }
}

function compile(ctx: UserContext, entity: AnyEntity, query: ListQuery): CompiledList {
  try {
    return compileList(entity.sqlModel, ctx.principal.environmentId, query, canReadFor(ctx));
  } catch (err) {
    if (err instanceof ListQueryError) {
      if (err.forbidden) throw new ForbiddenError(err.message);
      throw new BadRequestError(err.message, err.parameter);
    }
    throw err;
  }
}

/** compileList binds the environment as $1; the tenant reader binds it itself. */
function withoutEnvironment(ctx: UserContext, params: unknown[]): unknown[] {
  if (params[0] !== ctx.principal.environmentId) throw new Error('a compiled list must bind the environment as $1');
  return params.slice(1);
}

/** A list query compiled for the caller: its page source and its count statement. */
async function compiledPage(ctx: UserContext, entity: AnyEntity, input: ListQuery) {
  const scope = entity.scope?.(ctx);
  const where = scope && input.where ? { and: [scope, input.where] } : (scope ?? input.where);
  const query: ListQuery = {
    ...input,
    ...(where ? { where } : {}),
    orderBy: input.orderBy.length ? input.orderBy : entity.defaultSort,
  };
  const compiled = compile(ctx, entity, query);
  // values a caller chose (filters, a sort, a scope of its own) are planned for every time; the
  // entity's own order, and a range read in the order of its indexed column, are read off an index
  // whatever the values
  const stablePlan =
    (!where && input.orderBy.length === 0 && entity.indexedOrder) || (await rangeInIndexOrder(ctx, entity, query));
  // a first page of a prefix search on a prefix-indexed column: its ids are a range of that index
  // whatever the prefix, so the page (and its count) is one prepared statement, its values hidden
  // from the planner (each execution then costs what the generic plan costs, and PostgreSQL keeps it)
  const hidden = !stablePlan && (await prefixOnIndex(ctx, entity, query)) ? compiled.hidden() : null;
  if (hidden) {
    const page: PageSource = { ids: hidden.pageSql, params: withoutEnvironment(ctx, compiled.pageParams), stablePlan: true };
    if (!query.count) return { page, count: () => null };
    return { page, count: countBeside(page, hidden.countSql) };
  }
  const page: PageSource = {
    ids: compiled.pageSql,
    params: withoutEnvironment(ctx, compiled.pageParams),
    stablePlan,
    firstPageFrom: compiled.firstPageFrom,
  };
  if (query.count && !stablePlan) {
    // planned for their values either way: the count comes with the ids, in one statement (its
    // parameters are the first of the page's)
    return { page, count: countBeside(page, compiled.countSql) };
  }
  const count = query.count
    ? () =>
        ctx.sql
          .read<{ count: number }>(compiled.countSql, withoutEnvironment(ctx, compiled.countParams))
          .then((r) => r[0]?.count ?? 0)
    : () => null;
  return { page, count };
}

/** One page: ids filtered, sorted and paged in SQL and joined to the rows in one statement, the count beside it. */
export async function listEntity<E extends AnyEntity>(
  ctx: UserContext,
  entity: E,
  input: ListQuery,
): Promise<ListResult<EntityRow<E>>> {
  const { page, count } = await compiledPage(ctx, entity, input);
  const [rows, total] = await Promise.all([entity.loader.page(ctx.sql, page), count()]);
  return { items: restrictRelations(ctx, entity, rows as EntityRow<E>[]), count: total };
}

/**
 * One page in a wire's shape, each row as its JSON text made by PostgreSQL from the projection
 * (the same statements as listEntity's, another select list). A caller whose rights mask a
 * relation gets the rows read, masked and shaped in the process (the projection's JS form).
 */
export async function listEntityAs(
  ctx: UserContext,
  entity: AnyEntity,
  input: ListQuery,
  projection: EntityProjection,
): Promise<ListResult<string>> {
  if (projection.entity !== entity) throw new Error(`a projection of ${projection.entity.type} cannot show ${entity.type}`);
  if (masksFor(ctx, entity)) {
    const list = await listEntity(ctx, entity, input);
    return { items: list.items.map((row) => JSON.stringify(projection.read(row))), count: list.count };
  }
  const model = projection.customFieldsModel;
  // no definitions of the model in the environment: every row shows [] without a sub-query
  const customFields = model ? (await readDefinitions(ctx.sql, model)).length > 0 : false;
  const { page, count } = await compiledPage(ctx, entity, input);
  const [items, total] = await Promise.all([entity.loader.pageJson(ctx.sql, page, projection.sql(customFields)), count()]);
  return { items, count: total };
}

/** The page's count read in the page's own statement (`PageSource.count`): its parameters are the first of the page's. */
function countBeside(page: PageSource, sql: string): () => Promise<number> {
  let counted: (count: number) => void = () => {};
  const total = new Promise<number>((resolve) => {
    counted = resolve;
  });
  page.count = { sql, counted };
  return () => total;
}

/** The whole filter, past groups of one condition. */
function soleCondition(query: ListQuery): ListQuery['where'] {
  let where = query.where;
  // the wire's parsers group conditions: a group of one is that condition
  while (where && 'and' in where && where.and.length === 1) where = where.and[0];
  return where;
}

/**
 * A page whose whole filter is a prefix (`name=Acme*`) on a column of a table with an index on
 * (environment_id, lower(column) text_pattern_ops): the list compiler writes it as a range of that
 * index, which no prefix can make another plan better for (the count reads that range alone; the
 * page sorts the range's ids, the index holding the column).
 */
async function prefixOnIndex(ctx: UserContext, entity: AnyEntity, query: ListQuery): Promise<boolean> {
  const where = soleCondition(query);
  if (!where || !('path' in where) || where.op !== 'eq' || typeof where.value !== 'string') return false;
  if (prefixLiteral(where.value) === null) return false;
  const field = entity.sqlModel.fields[where.path];
  if (!field || field.expression) return false;
  return (await ctx.sql.indexedPrefix?.(entity.table, field.column)) ?? false;
}

const RANGE_OPERATORS = new Set(['ge', 'gt', 'le', 'lt']);

/**
 * A page whose whole filter is one range on a column, sorted by that column alone, of a table
 * with an index on (environment_id, column, id): change tracking (`updated_at >= …`, newest first).
 * The index is walked from the range's end in sort order and stops at the page's end, however
 * many rows the range holds, so no value can make another plan better.
 */
async function rangeInIndexOrder(ctx: UserContext, entity: AnyEntity, query: ListQuery): Promise<boolean> {
  const [key, ...more] = query.orderBy;
  const where = soleCondition(query);
  if (!key || more.length > 0 || !where || !('path' in where)) return false;
  if (where.path !== key.path || !RANGE_OPERATORS.has(where.op)) return false;
  const field = entity.sqlModel.fields[where.path];
  if (!field || field.expression) return false;
  return (await ctx.sql.indexedOrder?.(entity.table, field.column)) ?? false;
}

/** True when the row is inside the entity's scope for this caller (one indexed query). */
async function inScope(ctx: UserContext, entity: AnyEntity, id: string): Promise<boolean> {
  const scope = entity.scope?.(ctx);
  if (!scope) return true;
  const compiled = compile(ctx, entity, {
    where: { and: [scope, { path: 'id', op: 'eq', value: id }] },
    orderBy: [],
    offset: 0,
    limit: 1,
    count: false,
  });
  const rows = await ctx.sql.read(compiled.pageSql, withoutEnvironment(ctx, compiled.pageParams));
  return rows.length > 0;
}

export async function getEntity<E extends AnyEntity>(ctx: UserContext, entity: E, id: string): Promise<EntityRow<E>> {
  if (!(await inScope(ctx, entity, id))) throw new NotFoundError(entity.type, id);
  const [row] = await entity.loader.byIds(ctx.sql, [id]);
  if (!row) throw new NotFoundError(entity.type, id);
  return restrictRelations(ctx, entity, [row as EntityRow<E>])[0] as EntityRow<E>;
}

/**
 * One row in a wire's shape, its JSON text made by PostgreSQL from the projection, with its
 * version tag (an ETag); the caller's scope and masked relations as getEntity applies them.
 */
export async function getEntityAs(
  ctx: UserContext,
  entity: AnyEntity,
  id: string,
  projection: EntityProjection,
): Promise<{ json: string; tag: string | null }> {
  if (projection.entity !== entity) throw new Error(`a projection of ${projection.entity.type} cannot show ${entity.type}`);
  if (masksFor(ctx, entity)) {
    const row = await getEntity(ctx, entity, id);
    return { json: JSON.stringify(projection.read(row)), tag: recordTag(row) ?? null };
  }
  const model = projection.customFieldsModel;
  const [scoped, customFields] = await Promise.all([
    inScope(ctx, entity, id),
    model ? readDefinitions(ctx.sql, model).then((d) => d.length > 0) : false,
  ]);
  if (!scoped) throw new NotFoundError(entity.type, id);
  const row = await entity.loader.byIdJson(ctx.sql, id, projection.sql(customFields));
  if (!row) throw new NotFoundError(entity.type, id);
  return { json: row.json, tag: row.updatedAt ? (recordTag({ updatedAt: row.updatedAt }) ?? null) : null };
}

/**
 * The custom-field definitions of the entity's own model, read before its write transaction
 * opens: remembered by the process like every read's (no statement when they are), and the
 * transaction then holds its one connection without reading them. Writes never change
 * definitions; one changed meanwhile fails the write as a concurrent change would (a value
 * for a field removed breaks its foreign key: a 4xx, nothing written).
 */
async function definitionsBeforeWrite(ctx: UserContext, entity: AnyEntity): Promise<Map<string, CustomFieldRow[]>> {
  const known = new Map<string, CustomFieldRow[]>();
  for (const [, field] of fieldsOf(entity)) {
    if (field.kind === 'customFields') known.set(field.model, await readDefinitions(ctx.sql, field.model));
  }
  return known;
}

/** Runs a write in Prisma's transaction, with its tenant reader (commands use it too, and record their events with recordChange). */
async function inPrismaTransaction<T>(
  ctx: UserContext,
  body: (w: SqlWriteContext) => Promise<T>,
  definitions?: ReadonlyMap<string, CustomFieldRow[]>,
): Promise<T> {
  return inTransaction(
    (run) => ctx.db.$transaction(run),
    ctx.principal.environmentId,
    async (_tx, raw) => {
      // an id column no declaration names is refused (reference-columns.ts); global rows are read
      // where the request's reader reads them (TenantSql.global)
      const declared = withDeclaredColumns(ctx.sql.global ? { ...raw, global: ctx.sql.global } : raw);
      const sql = ctx.precondition ? withPrecondition(declared, ctx.precondition) : declared;
      // the custom-field values' check and the event's re-read need the same definitions: one read
      readDefinitionsOnce(sql, definitions);
      const out = await body({ ctx, sql, now: ctx.clock.now(), ownTransaction: false });
      assertPreconditionChecked(ctx.precondition);
      return out;
    },
  );
}

/**
 * Runs a write that goes through the tenant reader only in a transaction of our own (pipelined:
 * its statements go with the COMMIT), or in Prisma's where the database offers no transaction of
 * our own (the pool is not known).
 */
/** Runs a write with the render process it reserved (if any), given back when it ends (a no-op once used). */
export async function withReservedRender<T>(
  reserving: Promise<RenderReservation | undefined> | undefined,
  write: (render: RenderReservation | undefined) => Promise<T>,
): Promise<T> {
  const render = await reserving;
  try {
    return await write(render);
  } finally {
    render?.release();
  }
}

export async function inSqlWrite<T>(
  ctx: UserContext,
  body: (w: SqlWriteContext) => Promise<T>,
  definitions?: ReadonlyMap<string, CustomFieldRow[]>,
  render?: RenderReservation,
): Promise<T> {
  if (!ctx.sql.transaction) return inPrismaTransaction(ctx, (w) => body({ ...w, render }), definitions);
  const now = ctx.clock.now();
  return ctx.sql.transaction(async (raw) => {
    const declared = withDeclaredColumns(raw);
    const sql = ctx.precondition ? withPrecondition(declared, ctx.precondition) : declared;
    readDefinitionsOnce(sql, definitions);
    const out = await body({ ctx, sql, now, ownTransaction: true, render });
    assertPreconditionChecked(ctx.precondition);
    return out;
  });
}

/**
 * Records the change's event with the entity as stored; answers that row (a command answers it
 * without reading it again). `answer` false: the caller needs no row, and in a transaction of our
 * own the payload is made by PostgreSQL in the event's statement, the row never read into the
 * process (one round trip for a whole create instead of two; not for an entity whose event
 * reshapes its row in code).
 */
export async function recordChange(
  w: SqlWriteContext,
  entity: AnyEntity,
  id: string,
  change: 'created' | 'updated',
  answer = true,
): Promise<unknown> {
  if (!answer && w.ownTransaction && !entity.eventData) {
    await recordEventOfRow(w.sql, {
      entityType: entity.type,
      entityId: id,
      change,
      table: entity.table,
      row: entity.loader.rowJson(),
    });
    return undefined;
  }
  const [row] = await entity.loader.byIds(w.sql, [id]);
  await recordEvent(w.sql, { entityType: entity.type, entityId: id, change, data: entityEventData(entity, row, id) });
  return row;
}

/**
 * What an event of the entity carries: the entity as its output schema defines it, in JSON (date-times
 * as ISO 8601), stringified once and written as it is.
 */
export function entityEventData(entity: AnyEntity, row: unknown, id: string): EventJson {
  if (!row) return new EventJson(JSON.stringify({ id }));
  return new EventJson(JSON.stringify(entity.eventData ? entity.eventData(row as never) : row));
}

/** A write's id and the entity as the write stored it (read once, in the write's transaction, for its event). */
export interface Written {
  id: string;
  row: unknown;
}

export async function createEntity<C>(
  ctx: UserContext,
  entity: AnyEntity,
  create: EntityCreate<C>,
  input: C,
): Promise<{ id: string }> {
  const { id } = await createEntityRow(ctx, entity, create, input, false);
  return { id };
}

/** `answer` false: the row is not needed (Written.row may be undefined; see recordChange) */
export async function createEntityRow<C>(
  ctx: UserContext,
  entity: AnyEntity,
  create: EntityCreate<C>,
  input: C,
  answer = true,
): Promise<Written> {
  const definitions = await definitionsBeforeWrite(ctx, entity);
  const write =
    (run: (w: SqlWriteContext, input: C) => Promise<string>) =>
    async (w: SqlWriteContext): Promise<Written> => {
      await assertEntityReferences(w.sql, entity, input, create.references?.(input) ?? []);
      const id = await run(w, input);
      await clearExclusive(w.sql, entity, id, input as Readonly<Record<string, unknown>>, w.now);
      const row = await recordChange(w, entity, id, 'created', answer);
      return { id, row };
    };
  return withReservedRender(create.reserveRender?.(ctx, input), (render) =>
    inSqlWrite(ctx, write(create.run), definitions, render),
  );
}

export async function updateEntity<U>(
  ctx: UserContext,
  entity: AnyEntity,
  update: EntityUpdate<U>,
  id: string,
  input: U,
): Promise<{ id: string }> {
  await updateEntityRow(ctx, entity, update, id, input, false);
  return { id };
}

/** `answer` false: the row is not needed (Written.row may be undefined; see recordChange) */
export async function updateEntityRow<U>(
  ctx: UserContext,
  entity: AnyEntity,
  update: EntityUpdate<U>,
  id: string,
  input: U,
  answer = true,
): Promise<Written> {
  if (!(await inScope(ctx, entity, id))) throw new NotFoundError(entity.type, id);
  const definitions = await definitionsBeforeWrite(ctx, entity);
  const write =
    (run: (w: SqlWriteContext, id: string, input: U) => Promise<void>) =>
    async (w: SqlWriteContext): Promise<Written> => {
      if (update.lockFirst) await update.lockFirst(w, id, input);
      if (!(await w.sql.lockForUpdate(entity.table, id))) throw new NotFoundError(entity.type, id);
      await assertEntityReferences(w.sql, entity, input, update.references?.(input) ?? []);
      await run(w, id, input);
      await clearExclusive(w.sql, entity, id, input as Readonly<Record<string, unknown>>, w.now);
      const row = await recordChange(w, entity, id, 'updated', answer);
      return { id, row };
    };
  return withReservedRender(update.reserveRender?.(ctx, input), (render) =>
    inSqlWrite(ctx, write(update.run), definitions, render),
  );
}

/**
 * The entity a command answers after its write: the row its event was made from, as
 * getEntity would show it (the caller's scope and restricted relations applied).
 */
export async function writtenEntity<E extends AnyEntity>(ctx: UserContext, entity: E, written: Written): Promise<EntityRow<E>> {
  if (!written.row || !(await inScope(ctx, entity, written.id))) throw new NotFoundError(entity.type, written.id);
  return restrictRelations(ctx, entity, [written.row as EntityRow<E>])[0] as EntityRow<E>;
}

/** foreign_key_violation, from pg directly or wrapped by Prisma */
function isForeignKeyViolation(err: unknown): boolean {
  return sqlStateOf(err)?.code === '23503';
}

export async function deleteEntity(
  ctx: UserContext,
  entity: AnyEntity,
  remove: EntityRemove | undefined,
  id: string,
): Promise<{ id: string }> {
  if (!(await inScope(ctx, entity, id))) throw new NotFoundError(entity.type, id);
  try {
    // like every write, in a transaction of our own through the reader
    return await inSqlWrite(ctx, async (w) => {
      if (!(await w.sql.lockForUpdate(entity.table, id))) throw new NotFoundError(entity.type, id);
      if (remove) await remove(w, id);
      else await w.sql.deleteById(entity.table, id);
      await recordEvent(w.sql, { entityType: entity.type, entityId: id, change: 'deleted', data: { id, type: entity.type } });
      return { id };
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) {
      throw new BusinessRuleError(`${entity.type} ${id} is still referenced by other records; remove those first`);
    }
    throw err;
  }
}
