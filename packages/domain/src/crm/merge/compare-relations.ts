import { entityOfTable, inSqlWrite } from '../../shared/entity/index.js';
import { ValidationError } from '../../shared/errors.js';
import type { UserContext } from '../../trpc.js';
import type { RelationKind } from './merge-relation.js';
import { assertMergeable } from './merge-relation.js';
import { countReferences } from './move-references.js';
import { createHash } from 'node:crypto';

// the record's own identity and what derives from it (its timeline address) are no field a merge keeps or loses
const SKIP = new Set(['id', 'createdAt', 'updatedAt', 'timelineEmailAddress']);

/**
 * Shows what merging `sourceId` into `targetId` would do before it is done: the fields
 * whose values differ (the target's are kept) and how many references would move.
 * Reads only. A pair that cannot be merged answers isValid false with the reason.
 */
export async function compareRelations(
  ctx: UserContext,
  kind: RelationKind,
  input: { sourceId: string; targetId: string; swapLock?: boolean | undefined },
) {
  const [sourceId, targetId] = input.swapLock ? [input.targetId, input.sourceId] : [input.sourceId, input.targetId];
  // a read in a transaction of its own (the one a merge takes), through the tenant reader; it writes nothing
  return inSqlWrite(ctx, async ({ sql }) => {
    const present = await sql.existingIds(kind.entity.table, [sourceId, targetId]);
    const base = { swapLock: input.swapLock ?? false, sourceId, targetId };
    try {
      assertMergeable({ sourceId, targetId }, present, kind);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      return { ...base, isValid: false, message: err.message, differences: [], moves: {} };
    }
    const entity = entityOfTable(kind.entity.table) ?? kind.entity;
    const rows = (await entity.loader.byIds(sql, [sourceId, targetId])) as Record<string, unknown>[];
    const source = rows.find((r) => r.id === sourceId) ?? {};
    const target = rows.find((r) => r.id === targetId) ?? {};
    const differences = Object.keys(entity.fields)
      .filter((f) => !SKIP.has(f) && JSON.stringify(source[f]) !== JSON.stringify(target[f]))
      .map((field) => ({ field, source: source[field] ?? null, target: target[field] ?? null }));
    const moves = await countReferences(sql, kind.references, sourceId);
    return {
      ...base,
      isValid: true,
      message: `${sourceId} can be merged into ${targetId}: ${differences.length} fields differ (the target's are kept)`,
      differences,
      moves,
      token: createHash('sha256').update(`${sourceId}:${targetId}`).digest('hex').slice(0, 32),
    };
  });
}
