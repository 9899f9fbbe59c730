import type { Condition, ScopedTransaction, SortKey, SqlModel, TenantSql } from '@bo/db';
import type { z } from 'zod';
import type { UserContext } from '../../trpc.js';
import type { ModuleName } from '../rights.js';

/** A scoped client or a transaction of one: what loaders and writers work with. */
export type Db = ScopedTransaction;

export type View = 'v2' | 'v3';

/** What a page loader reads with: raw SQL of the caller's environment, and Prisma for the rest. */
export interface PageContext {
  sql: TenantSql;
  db: Db;
}

/**
 * A compiled list page for `loadPage`: `ids` selects the page's ids in order (a
 * sub-query; $1 is the environment, its own parameters follow as $2…, to be passed
 * on as `params`), and `orderBy` restores that order over the table aliased `t`.
 */
export interface PageSource {
  ids: string;
  params: unknown[];
  orderBy: string;
}

export interface WriteContext {
  ctx: UserContext;
  tx: Db;
  now: Date;
}

/**
 * A resource is declared once: its storage mapping (for the list compiler),
 * how its rows load, how each version shows them, its write schemas and the
 * right that guards it. v2 routes, v3 queries and tRPC procedures come from this.
 */
export interface ResourceDefinition<TRow = unknown, TCreate = unknown, TUpdate = unknown> {
  /** v2 path below /api/v2, e.g. `crm/organization` */
  name: string;
  /** entity type of ids and events, e.g. `organization` */
  entityType: string;
  module: ModuleName;
  sql: SqlModel;
  /** order when a list asks for none */
  defaultSort: SortKey[];
  /** fields v2 returns whatever `select` says (id always) */
  alwaysSelected?: string[];
  /**
   * rows the caller may see at all (e.g. only this model's custom fields, only the
   * company profiles the user may use); AND-ed into every list and checked on get
   */
  scope?: (ctx: UserContext) => Condition;
  /**
   * loads rows for the given ids, in any order; missing ids are left out. The
   * caller's environment is passed for loaders that use raw SQL (the scoped client
   * only scopes Prisma's model queries); rows of another environment must not load.
   */
  load(db: Db, ids: string[], environmentId: string): Promise<TRow[]>;
  /**
   * optional: a whole list page in one statement, the page's id query joined to the
   * rows (see PageSource), instead of the ids first and `load` after; rows in page order
   */
  loadPage?(ctx: PageContext, page: PageSource): Promise<TRow[]>;
  views: {
    v2(row: TRow): Record<string, unknown>;
    v3(row: TRow): Record<string, unknown>;
  };
  create?: {
    schema: z.ZodType<TCreate>;
    run(w: WriteContext, input: TCreate): Promise<string>;
  };
  update?: {
    schema: z.ZodType<TUpdate>;
    run(w: WriteContext, id: string, input: TUpdate): Promise<void>;
  };
  /** deletion; when absent, the row is deleted by id and its dependants follow by cascade */
  remove?: false | ((w: WriteContext, id: string) => Promise<void>);
  /** extra operations on one row, mounted by v2 as `/{name}/{id}/{action}` (duplicate, planningBudget, …) */
  actions?: ResourceAction[];
}

/**
 * An operation on one row beyond CRUD. GET actions read (query parameters as
 * input) and never change data; POST actions write (the JSON body as input).
 */
export interface ResourceAction {
  /** path segment after the id, e.g. `duplicate`; also the procedure name */
  name: string;
  method: 'GET' | 'POST';
  schema: z.ZodType<unknown>;
  run(ctx: UserContext, id: string, input: unknown): Promise<unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds definitions of any row and input types
export type AnyResource = ResourceDefinition<any, any, any>;
