import type { UserContext } from '../../trpc.js';
import { NotFoundError } from '../errors.js';
import type { AnyResource } from './definition.js';
import type { GetInput } from './list-input.js';
import { applySelect } from './select.js';

export async function getResource(ctx: UserContext, def: AnyResource, input: GetInput): Promise<Record<string, unknown>> {
  const [row] = await def.load(ctx.db, [input.id], ctx.principal.environmentId);
  if (!row) throw new NotFoundError(def.entityType, input.id);
  const shaped = def.views[input.view](row);
  return input.view === 'v2' ? applySelect(shaped, input.select, def.alwaysSelected) : shaped;
}
