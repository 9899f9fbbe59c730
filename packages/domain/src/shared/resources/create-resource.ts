import type { UserContext } from '../../trpc.js';
import { recordEvent } from '../events.js';
import type { AnyResource } from './definition.js';

/** Creates a row and its `created` event in one transaction; answers the new id. */
export async function createResource(ctx: UserContext, def: AnyResource, input: unknown): Promise<{ id: string }> {
  const create = def.create;
  if (!create) throw new Error(`${def.name} has no create`);
  return ctx.db.$transaction(async (tx) => {
    const id = await create.run({ ctx, tx, now: ctx.clock.now() }, input);
    const [row] = await def.load(tx, [id], ctx.principal.environmentId);
    await recordEvent(tx, {
      entityType: def.entityType,
      entityId: id,
      change: 'created',
      data: row ? def.views.v3(row) : { id },
    });
    return { id };
  });
}
