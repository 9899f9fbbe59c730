import type { Db } from './resources/definition.js';
import { ValidationError, type Violation } from './errors.js';

export interface ReferenceCheck {
  /** property path in the request, e.g. `relation_type.id` */
  path: string;
  table: string;
  id: string | null | undefined;
}

/**
 * Every id a write refers to must exist in the caller's environment; one query
 * per table, and all missing references are reported together.
 */
export async function assertReferencesExist(tx: Db, environmentId: string, checks: ReferenceCheck[]): Promise<void> {
  const byTable = new Map<string, ReferenceCheck[]>();
  for (const c of checks) {
    if (c.id === null || c.id === undefined) continue;
    const list = byTable.get(c.table) ?? [];
    list.push(c);
    byTable.set(c.table, list);
  }
  const violations: Violation[] = [];
  for (const [table, list] of byTable) {
    const ids = [...new Set(list.map((c) => c.id as string))];
    const found = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM "${table}" WHERE id = ANY($1::text[]) AND environment_id = $2`,
      ids,
      environmentId,
    );
    const present = new Set(found.map((r) => r.id));
    for (const c of list) {
      if (!present.has(c.id as string)) {
        violations.push({ path: c.path, message: `no such record: ${c.id}`, code: 'not_found' });
      }
    }
  }
  if (violations.length) throw new ValidationError(violations);
}
