/** The writes through the tenant reader that every area shares (rows many at once, dates, decimals). */
import { type TenantReader, tableIdent } from '@bo/db';
import { assertDeclaredColumns } from './entity/reference-columns.js';

/** PostgreSQL binds at most 65,535 parameters a statement: rows are inserted in chunks well below that. */
const MAX_PARAMETERS = 30_000;

/**
 * Inserts rows of the environment into one table, as few statements as the parameter limit allows
 * (one for any quote's, service's or invoice's lines), queued: nobody waits for them. Every row names
 * the same columns (by column name; environment_id is the reader's, bound as $1).
 */
export async function insertRows(
  sql: TenantReader,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  if (rows.length === 0) return;
  // an id column no declaration names is refused (reference-columns.ts)
  assertDeclaredColumns(table, columns);
  const names = ['environment_id', ...columns.map(tableIdent)].join(', ');
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const values: unknown[] = [];
    const tuples = chunk.map((row) => {
      if (row.length !== columns.length)
        throw new Error(`a row of ${table} names ${row.length} values for ${columns.length} columns`);
      const placeholders = row.map((value) => {
        values.push(value);
        // $1 is the environment: the row's values start at $2
        return `$${values.length + 1}`;
      });
      return `($1, ${placeholders.join(', ')})`;
    });
    await sql.queue(`INSERT INTO ${tableIdent(table)} (${names}) VALUES ${tuples.join(', ')}`, values);
  }
}

/** A calendar date as PostgreSQL's `date` text: the driver would send a Date in the process's time zone. */
export const dateText = (d: Date): string => d.toISOString().slice(0, 10);

/** `date` text of a value a write may leave out (undefined) or clear (null). */
export const optionalDateText = (d: Date | null | undefined): string | null | undefined =>
  d === undefined ? undefined : d === null ? null : dateText(d);

/**
 * A numeric column's text as Prisma's Decimal printed it ("10.0000" → "10", "95.5000" → "95.5"):
 * the values of a payload that used to be a Prisma row.
 */
export function decimalJson(text: string | null): string | null {
  if (text === null || !text.includes('.')) return text;
  return text.replace(/0+$/, '').replace(/\.$/, '');
}
