import { compileList } from '@bo/db';
import type { UserContext } from '../../trpc.js';
import { NotFoundError } from '../errors.js';
import type { AnyResource } from './definition.js';
import type { GetInput } from './list-input.js';
import { applySelect } from './select.js';

/** True when the row is inside the resource's scope for this caller (one indexed query). */
export async function inScope(ctx: UserContext, def: AnyResource, id: string): Promise<boolean> {
  const scope = def.scope?.(ctx);
  if (!scope) return true;
  const compiled = compileList(def.sql, ctx.principal.environmentId, {
    where: { and: [scope, { path: 'id', op: 'eq', value: id }] },
    orderBy: [],
    offset: 0,
    limit: 1,
    count: false,
  });
  const rows = await ctx.db.$queryRawUnsafe<{ id: string }[]>(compiled.pageSql, ...compiled.pageParams);
  return rows.length > 0;
}

export async function getResource(ctx: UserContext, def: AnyResource, input: GetInput): Promise<Record<string, unknown>> {
  if (!(await inScope(ctx, def, input.id))) throw new NotFoundError(def.entityType, input.id);
  const [row] = await def.load(ctx.db, [input.id], ctx.principal.environmentId);
  if (!row) throw new NotFoundError(def.entityType, input.id);
  const shaped = def.views[input.view](row);
  return input.view === 'v2' ? applySelect(shaped, input.select, def.alwaysSelected) : shaped;
}
