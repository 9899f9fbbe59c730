import type { TenantReader } from '@bo/db';
import { tableIdent } from '@bo/db';
import type { ReferenceColumn } from './relation-references.js';

export interface MovedRows {
  /** ids of entity rows that now refer to the survivor, by entity type (for their events) */
  changed: Map<string, string[]>;
  /** rows moved per table */
  counts: Record<string, number>;
}

/**
 * Moves every reference from `source` to `target`, in the caller's transaction. Where a
 * unique key would be broken (the same contact, interest, address kind or custom field
 * on both), the survivor's row wins and the source's goes.
 */
export async function moveReferences(
  sql: TenantReader,
  references: ReferenceColumn[],
  source: string,
  target: string,
): Promise<MovedRows> {
  const changed = new Map<string, string[]>();
  const counts: Record<string, number> = {};
  for (const ref of references) {
    const table = tableIdent(ref.table);
    const column = tableIdent(ref.column);
    if (ref.uniqueWith) {
      const same = ref.uniqueWith.map((c) => `AND x.${tableIdent(c)} IS NOT DISTINCT FROM r.${tableIdent(c)}`).join(' ');
      await sql.read(
        `DELETE FROM ${table} r WHERE r.environment_id = $1 AND r.${column} = $2
           AND EXISTS (SELECT 1 FROM ${table} x WHERE x.environment_id = $1 AND x.${column} = $3 ${same})
         RETURNING 1`,
        [source, target],
      );
    }
    const returning = ref.entityType ? 'r.id' : '1 AS id';
    const rows = await sql.read<{ id: string }>(
      `UPDATE ${table} r SET ${column} = $3 WHERE r.environment_id = $1 AND r.${column} = $2 RETURNING ${returning}`,
      [source, target],
    );
    counts[ref.table] = (counts[ref.table] ?? 0) + rows.length;
    if (ref.entityType && rows.length) {
      changed.set(ref.entityType, [...(changed.get(ref.entityType) ?? []), ...rows.map((r) => r.id)]);
    }
  }
  return { changed, counts };
}

/** How many rows of each table refer to `id` (what a merge would move). */
export async function countReferences(
  sql: TenantReader,
  references: ReferenceColumn[],
  id: string,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const ref of references) {
    const [row] = await sql.read<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${tableIdent(ref.table)} WHERE environment_id = $1 AND ${tableIdent(ref.column)} = $2`,
      [id],
    );
    if (row && row.n > 0) out[ref.table] = (out[ref.table] ?? 0) + row.n;
  }
  return out;
}
