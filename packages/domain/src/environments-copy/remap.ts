import { createHmac, randomBytes } from 'node:crypto';
import type { CopiedTable } from './catalog.js';
import { CLEARED_COLUMNS } from './catalog.js';

/**
 * New ids as a function of the old ones: HMAC-SHA256 under a salt drawn once per copy and kept in
 * its state. So the id map costs no memory and no table, a resumed copy derives exactly the ids
 * the killed one did, and a reference is remapped without knowing which table it points into:
 * any whole value shaped like an id (`<entity_type>:<32 hex>` or a UUID), in any column, array or
 * JSON document, is an id of the source environment (ids are random, so free text never is one
 * by accident) and gets its new id. This reaches the references the catalog cannot see (a
 * document's linked person, ids inside custom-field JSON) as well as the foreign keys.
 */
export function newSalt(): string {
  return randomBytes(16).toString('hex');
}

const ENTITY_ID = /^([a-z][a-z0-9_]*):[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface Remapper {
  readonly sourceEnvironmentId: string | null;
  readonly targetEnvironmentId: string;
  id(value: string): string;
  storageKey(key: string): string;
  /**
   * a row as read from the source (row_to_json), made a row of the target in place: the caller's
   * freshly parsed object, so no second object per row (the copy's garbage is what V8 must collect)
   */
  row(table: CopiedTable, row: Record<string, unknown>): Record<string, unknown>;
}

export function remapper(salt: string, sourceEnvironmentId: string | null, targetEnvironmentId: string): Remapper {
  const digest = (value: string) => createHmac('sha256', salt).update(value).digest();
  const id = (value: string): string => {
    if (value === sourceEnvironmentId) return targetEnvironmentId;
    // the shortest id is `x:` and 32 hex digits: most values (names, dates, text) stop here
    if (value.length < 34) return value;
    const entity = ENTITY_ID.exec(value);
    if (entity) return `${entity[1]}:${digest(value).subarray(0, 16).toString('hex')}`;
    if (UUID.test(value)) {
      const bytes = digest(value).subarray(0, 16);
      const old = Buffer.from(value.replaceAll('-', ''), 'hex');
      const version = (old[6] ?? 0) >> 4;
      // a UUID v7 keeps its time (its order among the others); every UUID keeps its version
      if (version === 7) old.copy(bytes, 0, 0, 6);
      bytes[6] = ((bytes[6] ?? 0) & 0x0f) | (version << 4);
      bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
      const hex = bytes.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
    return value;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return id(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[id(k)] = walk(v);
      return out;
    }
    return value;
  };
  const storageKey = (key: string): string => {
    // the same folder, a new name: `documents/ab/abcd…` → `documents/<h[0..2]>/<h>`
    const folder = key.split('/')[0] ?? 'files';
    const h = digest(`storage:${key}`).toString('hex');
    return `${folder}/${h.slice(0, 2)}/${h}`;
  };
  return {
    sourceEnvironmentId,
    targetEnvironmentId,
    id,
    storageKey,
    row(table, row) {
      const cleared = CLEARED_COLUMNS[table.name] ?? [];
      // for…in over the parsed row's own keys, not Object.entries: no [key, value] array per column
      for (const column in row) {
        const value = row[column];
        if (column === 'environment_id') row[column] = targetEnvironmentId;
        else if (cleared.includes(column)) row[column] = null;
        else if (table.fileColumns.includes(column) && typeof value === 'string') row[column] = storageKey(value);
        else if (typeof value === 'string') row[column] = id(value);
        else if (value !== null && typeof value === 'object') row[column] = walk(value);
      }
      return row;
    },
  };
}
