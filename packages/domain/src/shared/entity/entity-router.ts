import { OPERATORS, type Condition } from '@bo/db';
import { z } from 'zod';
import { moduleProcedure } from '../../trpc.js';
import type { AnyEntity } from './define-entity.js';
import { checkProjected, type EntityProjection, isEntityProjection } from './entity-projection.js';
import { NotFoundError } from '../errors.js';
import {
  createEntity,
  createEntityRow,
  deleteEntity,
  type EntityCreate,
  type EntityRemove,
  type EntityUpdate,
  getEntity,
  getEntityAs,
  listEntity,
  listEntityAs,
  updateEntity,
  updateEntityRow,
  writtenEntity,
} from './entity-crud.js';

const comparisonSchema = z.object({
  path: z.string().min(1),
  op: z.enum(OPERATORS),
  value: z.union([z.string(), z.array(z.string())]),
});

export const conditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([comparisonSchema, z.object({ and: z.array(conditionSchema) }), z.object({ or: z.array(conditionSchema) })]),
);

/** A list query in domain paths; each adapter enforces its own page size (v2 100, v3 30). */
export const listQuerySchema = z.object({
  where: conditionSchema.optional(),
  orderBy: z.array(z.object({ path: z.string().min(1), dir: z.enum(['asc', 'desc']) })).default([]),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(100).default(100),
  count: z.boolean().default(false),
});

export const idInputSchema = z.object({ id: z.string().min(1) });
const idOutputSchema = z.object({ id: z.string() });

/**
 * Whether every item of a list page is checked against the entity's output schema. A page's rows come
 * from a statement derived from the same declaration as the schema, so what the check finds is a
 * declaration that does not match its table: the tests (vitest sets NODE_ENV=test) and development check
 * every item; elsewhere each page's first item is checked and the page is answered as read (checking
 * all 100 organizations of a page copied each of them: about 5% of a list request's CPU with its garbage).
 * PAGE_OUTPUT_CHECK (`every`, `first`) says it outright: a test that measures the service as it runs in
 * production (tests/fair-share-cpu.test.ts) sets `first`.
 */
export const CHECK_EVERY_PAGE_ITEM =
  process.env.PAGE_OUTPUT_CHECK === 'every' ||
  (process.env.PAGE_OUTPUT_CHECK !== 'first' && (process.env.NODE_ENV === 'test' || process.env.NODE_ENV === 'development'));

const pageShape = z.object({ items: z.array(z.unknown()), count: z.number().int().nullable() });

/** The output check of an entity's list page (see CHECK_EVERY_PAGE_ITEM); typed as the page. */
export function pageOutput<Row>(schema: z.ZodType<Row, Row>, everyItem = CHECK_EVERY_PAGE_ITEM) {
  const list = z.object({ items: z.array(schema), count: z.number().int().nullable() });
  return (value: unknown): { items: Row[]; count: number | null } => {
    if (everyItem) return list.parse(value);
    const page = pageShape.parse(value);
    if (page.items.length > 0) schema.parse(page.items[0]);
    return value as { items: Row[]; count: number | null };
  };
}

const projectedPage = z.object({ items: z.array(z.string()), count: z.number().int().nullable() });
const projectedRow = z.object({ json: z.string(), tag: z.string().nullable() });

/**
 * `list` and `get` of an entity, typed by its output schema; `listAs` and `getAs` answer rows in a
 * wire's shape, as JSON texts PostgreSQL makes from a projection (in-process callers: a projection
 * is a value of this process, not something a request can send).
 */
export function entityQueries<Row>(entity: AnyEntity & { schema: z.ZodType<Row, Row> }) {
  const schema: z.ZodType<Row, Row> = entity.schema;
  return {
    list: moduleProcedure(entity.module, 'read')
      .input(listQuerySchema)
      .output(pageOutput(schema))
      .query(({ ctx, input }) => listEntity(ctx, entity, input) as Promise<{ items: Row[]; count: number | null }>),
    listAs: moduleProcedure(entity.module, 'read')
      .input(
        listQuerySchema.extend({ projection: z.custom<EntityProjection>(isEntityProjection, 'a projection of this process') }),
      )
      .output((value: unknown) => projectedPage.parse(value))
      .query(async ({ ctx, input }) => {
        const { projection, ...query } = input;
        const page = await listEntityAs(ctx, entity, query, projection);
        checkProjected(projection, page.items, CHECK_EVERY_PAGE_ITEM);
        return page;
      }),
    getAs: moduleProcedure(entity.module, 'read')
      .input(idInputSchema.extend({ projection: z.custom<EntityProjection>(isEntityProjection, 'a projection of this process') }))
      .output((value: unknown) => projectedRow.parse(value))
      .query(async ({ ctx, input }) => {
        const row = await getEntityAs(ctx, entity, input.id, input.projection);
        checkProjected(input.projection, [row.json], true);
        return row;
      }),
    get: moduleProcedure(entity.module, 'read')
      .input(idInputSchema)
      .output(schema)
      .query(({ ctx, input }) => getEntity(ctx, entity, input.id) as Promise<never>),
  };
}

/** `create`: the input schema in domain terms; answers the new id. */
export function entityCreate<C extends z.ZodType>(entity: AnyEntity, input: C, create: EntityCreate<z.output<C>>) {
  return moduleProcedure(entity.module, 'write')
    .input(z.object({ data: input }))
    .output(idOutputSchema)
    .mutation(({ ctx, input: i }) => createEntity(ctx, entity, create, (i as { data: z.output<C> }).data));
}

export function entityUpdate<U extends z.ZodType>(entity: AnyEntity, input: U, update: EntityUpdate<z.output<U>>) {
  return moduleProcedure(entity.module, 'write')
    .input(z.object({ id: z.string().min(1), data: input }))
    .output(idOutputSchema)
    .mutation(({ ctx, input: i }) =>
      updateEntity(ctx, entity, update, (i as { id: string }).id, (i as { data: z.output<U> }).data),
    );
}

export function entityDelete(entity: AnyEntity, remove?: EntityRemove) {
  return moduleProcedure(entity.module, 'write')
    .input(idInputSchema)
    .output(idOutputSchema)
    .mutation(({ ctx, input }) => deleteEntity(ctx, entity, remove, input.id));
}

/** A command creating through the entity's write path (one transaction, references, event); answers the entity as stored. */
export function entityCreateCommand<Row, C extends z.ZodType>(
  entity: AnyEntity & { schema: z.ZodType<Row, Row> },
  input: C,
  create: EntityCreate<z.output<C>>,
) {
  const schema: z.ZodType<Row, Row> = entity.schema;
  return moduleProcedure(entity.module, 'write')
    .input(z.object({ data: input }))
    .output(schema)
    .mutation(async ({ ctx, input: i }) => {
      // the row read for the event is the answer: no second read after the commit
      const written = await createEntityRow(ctx, entity, create, (i as { data: z.output<C> }).data);
      return writtenEntity(ctx, entity, written) as Promise<never>;
    });
}

/**
 * A command updating through the entity's write path; answers the entity as stored.
 * `missing` replaces the 404 of an id that names no row (a command may answer 422 there).
 */
export function entityUpdateCommand<Row, U extends z.ZodType>(
  entity: AnyEntity & { schema: z.ZodType<Row, Row> },
  input: U,
  update: EntityUpdate<z.output<U>>,
  missing?: (id: string) => Error,
) {
  const schema: z.ZodType<Row, Row> = entity.schema;
  return moduleProcedure(entity.module, 'write')
    .input(z.object({ id: z.string().min(1), data: input }))
    .output(schema)
    .mutation(async ({ ctx, input: i }) => {
      const { id, data } = i as { id: string; data: z.output<U> };
      let written: Awaited<ReturnType<typeof updateEntityRow>>;
      try {
        written = await updateEntityRow(ctx, entity, update, id, data);
      } catch (err) {
        if (missing && err instanceof NotFoundError && err.entityType === entity.type && err.id === id) throw missing(id);
        throw err;
      }
      return writtenEntity(ctx, entity, written) as Promise<never>;
    });
}
