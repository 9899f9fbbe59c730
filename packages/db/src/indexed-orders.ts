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

export interface IndexedOrders {
  /** true when (environment_id, column, id) is an index of the table; false while the catalog cannot be read */
  has(table: string, column: string): Promise<boolean>;
}

export function indexedOrders(read: RawRead): IndexedOrders {
  let known: Promise<Set<string>> | null = null;
  return {
    async has(table, column) {
      known ??= read<{ table: string; column: string }>(CATALOG_SQL, []).then(
        (rows) => new Set(rows.map((r) => `${r.table}.${r.column}`)),
        () => {
          // not known: the next caller asks again
          known = null;
          return new Set<string>();
        },
      );
      return (await known).has(`${table}.${column}`);
    },
  };
}
