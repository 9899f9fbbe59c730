import type { AnyResource, Db } from './definition.js';
import { NotFoundError } from '../errors.js';

/**
 * Locks one row of the resource for the rest of the transaction, so concurrent
 * writes to it are serialised; a missing row (or another environment's) is NotFound.
 */
export async function lockRow(tx: Db, def: AnyResource, environmentId: string, id: string): Promise<void> {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM "${def.sql.table}" WHERE id = $1 AND environment_id = $2 FOR UPDATE`,
    id,
    environmentId,
  );
  if (rows.length === 0) throw new NotFoundError(def.entityType, id);
}
