import type { UserContext } from '../../trpc.js';
import { NotFoundError } from '../errors.js';
import { recordEvent } from '../events.js';
import type { AnyResource } from './definition.js';
import { inScope } from './get-resource.js';
import { lockRow } from './lock-row.js';

/** Updates a row under a row lock and records its `updated` event in the same transaction. */
export async function updateResource(ctx: UserContext, def: AnyResource, id: string, input: unknown): Promise<{ id: string }> {
  const update = def.update;
  if (!update) throw new Error(`${def.name} has no update`);
  if (!(await inScope(ctx, def, id))) throw new NotFoundError(def.entityType, id);
  return ctx.db.$transaction(async (tx) => {
    await lockRow(tx, def, ctx.principal.environmentId, id);
    await update.run({ ctx, tx, now: ctx.clock.now() }, id, input);
    const [row] = await def.load(tx, [id], ctx.principal.environmentId);
    await recordEvent(tx, {
      entityType: def.entityType,
      entityId: id,
      change: 'updated',
      data: row ? def.views.v3(row) : { id },
    });
    return { id };
  });
}
