import { type TenantReader, tableIdent } from '@bo/db';
import { PreconditionFailedError } from './errors.js';

/**
 * A write's `If-Match` (lost-update protection, issue 29 section 3): the entity tags the client
 * read. `checked` turns true once the write has compared them with the record it locked.
 */
export interface WritePrecondition {
  ifMatch: readonly string[];
  checked: boolean;
}

/** The entity tag of a record: its version, the time of its last change (ms, base 36), as a strong tag. */
export function entityTag(updatedAt: Date): string {
  return `"${updatedAt.getTime().toString(36)}"`;
}

/** The tags of an `If-Match` or `If-None-Match` header: `"a", W/"b"` → ['"a"', '"b"']; `*` stays `*`. */
export function parseEntityTags(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .filter(Boolean);
}

/** Whether a record last changed at `updatedAt` matches the tags (`*`: any record that exists). */
export function tagsMatch(tags: readonly string[], updatedAt: Date | null): boolean {
  if (tags.includes('*')) return true;
  return updatedAt !== null && tags.includes(entityTag(updatedAt));
}

/**
 * The reader of a write with a precondition: the first record the write locks (an update or a
 * delete locks its record before anything else) is compared with the tags, under its lock, so two
 * clients that read the same version cannot both write: the second finds the first's version
 * and gets 412. Read only when a client sent If-Match; a table without `updated_at` has no version
 * to match (only `*` does).
 */
export function withPrecondition(sql: TenantReader, pre: WritePrecondition): TenantReader {
  // a copy, not Object.create(sql): see withDeclaredColumns
  const checked: TenantReader = { ...sql };
  checked.lockForUpdate = async (table, id) => {
    const found = await sql.lockForUpdate(table, id);
    if (!found || pre.checked) return found;
    const [row] = await sql.read<{ updated_at: string | null }>(
      `SELECT to_jsonb(t) ->> 'updated_at' AS updated_at FROM ${tableIdent(table)} t WHERE t.environment_id = $1 AND t.id = $2`,
      [id],
    );
    pre.checked = true;
    const version = row?.updated_at ? new Date(row.updated_at) : null;
    if (!tagsMatch(pre.ifMatch, version)) {
      throw new PreconditionFailedError(
        'If-Match: the record has changed since that version was read; read it again, and write with its new ETag',
      );
    }
    return found;
  };
  return checked;
}

/** After the write: a precondition nothing could check refuses the write (it is rolled back). */
export function assertPreconditionChecked(pre: WritePrecondition | undefined): void {
  if (pre && !pre.checked) {
    throw new PreconditionFailedError('If-Match: this request changes no existing record the tag could be compared with');
  }
}

/** The ETag of a record as a procedure answers it (its `updatedAt`), when it has a version. */
export function recordTag(row: unknown): string | undefined {
  const updatedAt = (row as { updatedAt?: unknown } | null)?.updatedAt;
  return updatedAt instanceof Date ? entityTag(updatedAt) : undefined;
}

/** Whether an `If-None-Match` header names this tag (or `*`): the client's copy is current, answer 304. */
export function noneMatchHits(header: string | undefined, tag: string): boolean {
  return header !== undefined && parseEntityTags(header).some((t) => t === tag || t === '*');
}

/** The precondition of a request's `If-Match` header, for the caller's context (none without one). */
export function preconditionOf(ifMatch: string | undefined): WritePrecondition | undefined {
  return ifMatch === undefined ? undefined : { ifMatch: parseEntityTags(ifMatch), checked: false };
}
