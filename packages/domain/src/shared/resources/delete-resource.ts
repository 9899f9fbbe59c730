import type { UserContext } from '../../trpc.js';
import { BusinessRuleError, NotFoundError } from '../errors.js';
import { recordEvent } from '../events.js';
import type { AnyResource } from './definition.js';
import { inScope } from './get-resource.js';
import { lockRow } from './lock-row.js';

function isForeignKeyViolation(err: unknown): boolean {
  const text = err instanceof Error ? `${err.message} ${JSON.stringify((err as { meta?: unknown }).meta ?? '')}` : '';
  return text.includes('23503') || text.includes('foreign key');
}

/** Deletes a row and records its `deleted` event (id and type) in one transaction. */
export async function deleteResource(ctx: UserContext, def: AnyResource, id: string): Promise<{ id: string }> {
  if (!(await inScope(ctx, def, id))) throw new NotFoundError(def.entityType, id);
  try {
    return await ctx.db.$transaction(async (tx) => {
      await lockRow(tx, def, ctx.principal.environmentId, id);
      if (typeof def.remove === 'function') await def.remove({ ctx, tx, now: ctx.clock.now() }, id);
      else {
        await tx.$executeRawUnsafe(
          `DELETE FROM "${def.sql.table}" WHERE id = $1 AND environment_id = $2`,
          id,
          ctx.principal.environmentId,
        );
      }
      await recordEvent(tx, { entityType: def.entityType, entityId: id, change: 'deleted', data: { id, type: def.entityType } });
      return { id };
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) {
      throw new BusinessRuleError(`${def.entityType} ${id} is still referenced by other records; remove those first`);
    }
    throw err;
  }
}
