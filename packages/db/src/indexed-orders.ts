import type { RawRead } from './client.js';

/**
 * Which columns of which tables have a plain b-tree index on (environment_id, column, id):
 * a range on such a column, sorted by it, is read off that index whatever the values (a
 * page of change tracking, `updated_at >= … ORDER BY updated_at DESC`), so its plan cannot
 * depend on them. Read from the catalog once per process (indexes change with migrations,
 * which a deploy restarts the service for).
 */
const CATALOG_SQL = `
  SELECT c.relname AS "table", k.attname AS "column"
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indrelid
    JOIN pg_namespace ns ON ns.oid = c.relnamespace AND ns.nspname = current_schema()
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_am am ON am.oid = ic.relam AND am.amname = 'btree'
    JOIN pg_attribute e ON e.attrelid = c.oid AND e.attnum = i.indkey[0] AND e.attname = 'environment_id'
    JOIN pg_attribute k ON k.attrelid = c.oid AND k.attnum = i.indkey[1]
    JOIN pg_attribute d ON d.attrelid = c.oid AND d.attnum = i.indkey[2] AND d.attname = 'id'
   WHERE i.indisvalid AND i.indpred IS NULL AND i.indexprs IS NULL AND i.indnatts = 3`;

/**
 * Which columns have a b-tree index on (environment_id, lower(column) text_pattern_ops): a prefix
 * search on such a column is a range of that index whatever its value (see prefixLiteral in list-sql.ts).
 */
const PREFIX_CATALOG_SQL = `
  SELECT c.relname AS "table",
         substring(pg_get_indexdef(i.indexrelid) FROM 'USING btree \\(environment_id, lower\\(([a-z_][a-z0-9_]*)\\) text_pattern_ops\\)') AS "column"
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indrelid
    JOIN pg_namespace ns ON ns.oid = c.relnamespace AND ns.nspname = current_schema()
   WHERE i.indisvalid AND i.indpred IS NULL`;

export interface IndexedOrders {
  /** true when (environment_id, column, id) is an index of the table; false while the catalog cannot be read */
  has(table: string, column: string): Promise<boolean>;
  /** true when (environment_id, lower(column) text_pattern_ops) is an index of the table; false while the catalog cannot be read */
  hasPrefix(table: string, column: string): Promise<boolean>;
}

/** a catalog read once, read again by the next caller after a failure */
function catalog(read: RawRead, sql: string): () => Promise<Set<string>> {
  let known: Promise<Set<string>> | null = null;
  return () => {
    known ??= read<{ table: string; column: string | null }>(sql, []).then(
      (rows) => new Set(rows.filter((r) => r.column !== null).map((r) => `${r.table}.${r.column}`)),
      () => {
        // not known: the next caller asks again
        known = null;
        return new Set<string>();
      },
    );
    return known;
  };
}

export function indexedOrders(read: RawRead): IndexedOrders {
  const orders = catalog(read, CATALOG_SQL);
  const prefixes = catalog(read, PREFIX_CATALOG_SQL);
  return {
    async has(table, column) {
      return (await orders()).has(`${table}.${column}`);
    },
    async hasPrefix(table, column) {
      return (await prefixes()).has(`${table}.${column}`);
    },
  };
}
