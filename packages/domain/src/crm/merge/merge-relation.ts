import type { TenantReader } from '@bo/db';
import { type AnyEntity, entityOfTable, inSqlWrite } from '../../shared/entity/index.js';
import { NotFoundError, ValidationError } from '../../shared/errors.js';
import { recordEvent } from '../../shared/events.js';
import type { UserContext } from '../../trpc.js';
import type { MergeInput } from './merge-relation.schema.js';
import { moveReferences } from './move-references.js';
import type { ReferenceColumn } from './relation-references.js';

export interface RelationKind {
  entity: AnyEntity;
  references: ReferenceColumn[];
}

/** The two ids must name two different rows of the relation's table in the caller's environment. */
export function assertMergeable(input: MergeInput, present: Set<string>, kind: RelationKind): void {
  if (input.sourceId === input.targetId) {
    throw new ValidationError([
      { path: 'targetId', message: `a ${kind.entity.type} cannot be merged into itself`, code: 'same_record' },
    ]);
  }
  const missing = (['sourceId', 'targetId'] as const).filter((k) => !present.has(input[k]));
  if (missing.length) {
    throw new ValidationError(
      missing.map((k) => ({
        path: k,
        message: `no such record: ${input[k]} (a ${kind.entity.type} of this environment)`,
        code: 'not_found',
      })),
    );
  }
}

/** An event per changed row, carrying the row's entity where the table has one declared. */
async function recordChanges(sql: TenantReader, changed: Map<string, string[]>, tables: Map<string, string>) {
  for (const [type, ids] of changed) {
    const entity = entityOfTable(tables.get(type) ?? '');
    const rows = entity ? await entity.loader.byIds(sql, ids) : [];
    const byId = new Map(rows.map((r) => [(r as { id: string }).id, r]));
    for (const id of ids) {
      const row = byId.get(id);
      const data = row ? (JSON.parse(JSON.stringify(row)) as Record<string, unknown>) : { id, type };
      await recordEvent(sql, { entityType: type, entityId: id, change: 'updated', data });
    }
  }
}

/**
 * Merges one relation into another in one transaction: every reference moves to the
 * survivor (the target), the merged one (the source) is gone, and every changed
 * entity records its event.
 */
export async function mergeRelation(
  ctx: UserContext,
  kind: RelationKind,
  input: MergeInput,
): Promise<{ success: boolean; message: string }> {
  // through the tenant reader only: a transaction of our own
  return inSqlWrite(ctx, async ({ sql }) => {
    const present = await sql.existingIds(kind.entity.table, [input.sourceId, input.targetId]);
    assertMergeable(input, present, kind);
    // both rows are locked in id order, so two merges of the same pair cannot deadlock
    for (const id of [input.sourceId, input.targetId].sort()) {
      if (!(await sql.lockForUpdate(kind.entity.table, id))) throw new NotFoundError(kind.entity.type, id);
    }
    const moved = await moveReferences(sql, kind.references, input.sourceId, input.targetId);
    await sql.deleteById(kind.entity.table, input.sourceId);
    await sql.read(`UPDATE ${kind.entity.table} SET updated_at = now() WHERE environment_id = $1 AND id = $2 RETURNING id`, [
      input.targetId,
    ]);
    const tables = new Map(kind.references.flatMap((r) => (r.entityType ? [[r.entityType, r.table] as [string, string]] : [])));
    await recordChanges(sql, moved.changed, tables);
    const target = entityOfTable(kind.entity.table);
    const [row] = target ? await target.loader.byIds(sql, [input.targetId]) : [];
    await recordEvent(sql, {
      entityType: kind.entity.type,
      entityId: input.targetId,
      change: 'updated',
      data: row ? (JSON.parse(JSON.stringify(row)) as Record<string, unknown>) : { id: input.targetId },
    });
    await recordEvent(sql, {
      entityType: kind.entity.type,
      entityId: input.sourceId,
      change: 'deleted',
      data: { id: input.sourceId, type: kind.entity.type, mergedInto: input.targetId },
    });
    const total = Object.values(moved.counts).reduce((a, b) => a + b, 0);
    return { success: true, message: `${input.sourceId} was merged into ${input.targetId}; ${total} references moved` };
  });
}
