import { type PrismaClient, tableIdent } from '@bo/db';
import type { CopiedTable, EnvironmentCatalog } from './catalog.js';

/** the types read as text, so that JSON numbers lose no digit on the way */
const AS_TEXT = new Set(['numeric', 'int8', 'money']);

export interface SourcePage {
  /** each row as PostgreSQL's row_to_json wrote it */
  rows: string[];
  /** the key of the last row, as text, to continue after */
  lastKey: string[] | null;
}

/**
 * One page of a table's rows in one environment, in primary-key order after `after` (keyset
 * paging: each page is one index range scan, whatever the position, and nothing else is held).
 */
export async function readPage(
  prisma: PrismaClient,
  environmentId: string,
  table: CopiedTable,
  after: string[] | null,
  limit: number,
): Promise<SourcePage> {
  const t = tableIdent(table.name);
  const select = table.columns
    .map((c) => (AS_TEXT.has(c.type) ? `${tableIdent(c.name)}::text AS ${tableIdent(c.name)}` : tableIdent(c.name)))
    .join(', ');
  const typeOf = (column: string) => table.columns.find((c) => c.name === column)?.type ?? 'text';
  const keyCols = table.key.map(tableIdent);
  const params: unknown[] = [environmentId];
  let where = 'environment_id = $1';
  if (after) {
    const placeholders = table.key.map((k, i) => `$${i + 2}::${tableIdent(typeOf(k))}`);
    where += ` AND (${keyCols.join(', ')}) > (${placeholders.join(', ')})`;
    params.push(...after);
  }
  const keyText = `json_build_array(${table.key.map((k) => `x.${tableIdent(k)}::text`).join(', ')})::text`;
  const rows = await prisma.$queryRawUnsafe<{ r: string; k: string }[]>(
    `SELECT row_to_json(x)::text AS r, ${keyText} AS k
       FROM (SELECT ${select} FROM ${t} WHERE ${where} ORDER BY ${keyCols.join(', ')} LIMIT ${Math.trunc(limit)}) x`,
    ...params,
  );
  const last = rows[rows.length - 1];
  return { rows: rows.map((r) => r.r), lastKey: last ? (JSON.parse(last.k) as string[]) : null };
}

export async function countRows(prisma: PrismaClient, environmentId: string, table: CopiedTable): Promise<number> {
  const rows = await prisma.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM ${tableIdent(table.name)} WHERE environment_id = $1`,
    environmentId,
  );
  return rows[0]?.n ?? 0;
}

/** The environment's storage keys, each once (a document and its upload share one), in key order after `after`. */
export async function readFileKeys(
  prisma: PrismaClient,
  environmentId: string,
  catalog: EnvironmentCatalog,
  after: string | null,
  limit: number,
): Promise<string[]> {
  const parts = catalog.tables.flatMap((t) =>
    t.fileColumns.map((c) => `SELECT ${tableIdent(c)} AS k FROM ${tableIdent(t.name)} WHERE environment_id = $1`),
  );
  if (parts.length === 0) return [];
  const rows = await prisma.$queryRawUnsafe<{ k: string }[]>(
    `SELECT k FROM (${parts.join(' UNION ')}) u WHERE k IS NOT NULL AND ($2::text IS NULL OR k > $2::text)
      ORDER BY k LIMIT ${Math.trunc(limit)}`,
    environmentId,
    after,
  );
  return rows.map((r) => r.k);
}
