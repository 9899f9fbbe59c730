import { type TenantReader, tableIdent } from '@bo/db';

/** PostgreSQL binds at most 65,535 parameters a statement: rows are inserted in chunks well below that. */
const MAX_PARAMETERS = 30_000;

/**
 * Inserts rows of the environment into one table, as few statements as the parameter limit allows
 * (one for any invoice's lines), queued: nobody waits for them. Every row names the same columns
 * (by column name; environment_id is the reader's, bound as $1). A generic helper the coordinator
 * may move beside the reader's `insert`.
 */
export async function insertRows(
  sql: TenantReader,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  if (rows.length === 0) return;
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
