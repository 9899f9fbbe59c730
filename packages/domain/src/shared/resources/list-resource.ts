import { type CompiledList, compileList, ListQueryError } from '@bo/db';
import type { UserContext } from '../../trpc.js';
import { BadRequestError } from '../errors.js';
import type { AnyResource } from './definition.js';
import type { ListInput } from './list-input.js';
import { applySelect } from './select.js';

export interface ListResult {
  items: Record<string, unknown>[];
  /** the size of the whole filtered collection, when asked for */
  count: number | null;
}

/**
 * One page of a resource: ids filtered, sorted and paged in one SQL query, the
 * page's rows (with their relations) loaded in a fixed number of queries.
 */
export async function listResource(ctx: UserContext, def: AnyResource, input: ListInput): Promise<ListResult> {
  const scope = def.scope?.(ctx);
  const where = scope && input.query.where ? { and: [scope, input.query.where] } : (scope ?? input.query.where);
  const query = { ...input.query, where, orderBy: input.query.orderBy.length ? input.query.orderBy : def.defaultSort };
  let compiled: ReturnType<typeof compileList>;
  try {
    compiled = compileList(def.sql, ctx.principal.environmentId, query);
  } catch (err) {
    if (err instanceof ListQueryError) throw new BadRequestError(err.message, err.parameter);
    throw err;
  }
  if (def.loadPage) {
    // ids and rows in one statement, the count beside it: one round trip fewer per page,
    // and both run through the tenant reader ($1 is the environment, bound by it)
    const [rows, count] = await Promise.all([
      def.loadPage(ctx, {
        ids: compiled.pageSql,
        params: withoutEnvironment(ctx, compiled.pageParams),
        orderBy: compiled.orderSql,
      }),
      query.count ? countRows(ctx, compiled) : null,
    ]);
    const items: Record<string, unknown>[] = [];
    for (const row of rows) {
      const shaped = def.views[input.view](row);
      items.push(input.view === 'v2' ? applySelect(shaped, input.select, def.alwaysSelected) : shaped);
    }
    return { items, count };
  }
  const idRows = await ctx.db.$queryRawUnsafe<{ id: string }[]>(compiled.pageSql, ...compiled.pageParams);
  const count = query.count
    ? ((await ctx.db.$queryRawUnsafe<{ count: number }[]>(compiled.countSql, ...compiled.countParams))[0]?.count ?? 0)
    : null;
  const ids = idRows.map((r) => r.id);
  const rows = ids.length ? await def.load(ctx.db, ids, ctx.principal.environmentId) : [];
  const byId = new Map(rows.map((r) => [(r as { id: string }).id, r]));
  const items: Record<string, unknown>[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) continue;
    const shaped = def.views[input.view](row);
    items.push(input.view === 'v2' ? applySelect(shaped, input.select, def.alwaysSelected) : shaped);
  }
  return { items, count };
}

/** compileList binds the environment as $1; the tenant reader binds it itself. */
function withoutEnvironment(ctx: UserContext, params: unknown[]): unknown[] {
  if (params[0] !== ctx.principal.environmentId) throw new Error('a compiled list must bind the environment as $1');
  return params.slice(1);
}

async function countRows(ctx: UserContext, compiled: CompiledList): Promise<number> {
  const rows = await ctx.sql.read<{ count: number }>(compiled.countSql, withoutEnvironment(ctx, compiled.countParams));
  return rows[0]?.count ?? 0;
}
