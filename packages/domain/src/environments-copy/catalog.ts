import type { PrismaClient } from '@bo/db';

/**
 * What an environment's data is, read from the database's own catalog rather than a hand list:
 * every table with an `environment_id` column is a tenant table, and is either copied or
 * excluded here with its reason (a test fails on a tenant table that is neither). The order of
 * the copied tables and the references to remap come from the foreign keys.
 */
export const EXCLUDED_TABLES: Readonly<Record<string, string>> = {
  api_token: 'a credential: the copy gets its own tokens (admin token create)',
  web_session: 'a credential: sessions of the settings page belong to the source',
  login_link: 'a credential: one-use sign-in links belong to the source',
  webhook_subscription: 'webhooks are not copied, so that no target of the source is called from the copy',
  webhook_delivery: 'deliveries of the source webhooks (history of calls made)',
  webhook_attempt: 'attempts of the source webhooks (history of calls made)',
  event: 'the outbox: copied events would be delivered and would show in the change feed as changes of the copy',
  idempotency_key: 'stored answers to retried requests of the source tokens',
  environment_placement: 'global: which cluster holds the source; a new environment is placed when it is created',
  environment_fence: 'a cluster’s record that the source moved off it; the copy is a new environment, placed anew',
};

/** Column values the copy does not carry over (credentials kept on a copied row). */
export const CLEARED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  user_account: ['password_hash'],
};

export interface CopiedTable {
  name: string;
  /** primary key columns, in key order: the keyset the copy pages on */
  key: string[];
  /** every column, in table order; numeric and bigint are read as text, so no digit is lost */
  columns: { name: string; type: string }[];
  /** columns holding a storage key (a file of the storage folder) */
  fileColumns: string[];
  /** foreign key columns that point into this same table: set after the table is complete */
  selfReferences: string[];
}

export interface EnvironmentCatalog {
  tables: CopiedTable[];
  /** tenant tables left out, with the reason */
  excluded: { name: string; reason: string }[];
}

interface ColumnRow {
  table_name: string;
  column_name: string;
  udt_name: string;
}

export async function readEnvironmentCatalog(prisma: PrismaClient): Promise<EnvironmentCatalog> {
  const columns = await prisma.$queryRawUnsafe<ColumnRow[]>(
    `SELECT c.table_name::text, c.column_name::text, c.udt_name::text
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
        AND c.table_name IN (SELECT table_name FROM information_schema.columns
                              WHERE table_schema = current_schema() AND column_name = 'environment_id')
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const keys = await prisma.$queryRawUnsafe<{ table_name: string; columns: string[] }[]>(
    `SELECT con.conrelid::regclass::text AS table_name,
            array(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(attnum, n)
                    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns
       FROM pg_constraint con
      WHERE con.contype = 'p' AND con.connamespace = current_schema()::regnamespace`,
  );
  const foreign = await prisma.$queryRawUnsafe<{ table_name: string; column_name: string; target: string }[]>(
    `SELECT con.conrelid::regclass::text AS table_name, a.attname::text AS column_name,
            con.confrelid::regclass::text AS target
       FROM pg_constraint con
       JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
      WHERE con.contype = 'f' AND con.connamespace = current_schema()::regnamespace`,
  );

  const byTable = new Map<string, { name: string; type: string }[]>();
  for (const c of columns) {
    const list = byTable.get(c.table_name) ?? [];
    list.push({ name: c.column_name, type: c.udt_name });
    byTable.set(c.table_name, list);
  }
  const keyOf = new Map(keys.map((k) => [k.table_name, k.columns]));
  const excluded: { name: string; reason: string }[] = [];
  const copied = new Map<string, CopiedTable>();
  for (const [name, cols] of byTable) {
    const reason = EXCLUDED_TABLES[name];
    if (reason) {
      excluded.push({ name, reason });
      continue;
    }
    const key = keyOf.get(name);
    if (!key || key.length === 0) throw new Error(`table ${name} has no primary key: the copy cannot page it`);
    const selfReferences = foreign.filter((f) => f.table_name === name && f.target === name).map((f) => f.column_name);
    // a reference into the table itself is set by the row's id in the copy's last step
    if (selfReferences.length > 0 && !(key.length === 1 && key[0] === 'id')) {
      throw new Error(`table ${name} refers to itself but its key is not one id column: the copy cannot set that later`);
    }
    copied.set(name, {
      name,
      key,
      columns: cols,
      fileColumns: cols.filter((c) => c.name === 'storage_key').map((c) => c.name),
      selfReferences,
    });
  }

  // parents before children; a reference into the table itself is set afterwards (selfReferences)
  const dependsOn = new Map<string, Set<string>>();
  for (const name of copied.keys()) dependsOn.set(name, new Set());
  for (const f of foreign) {
    if (!copied.has(f.table_name) || f.target === f.table_name) continue;
    if (!copied.has(f.target)) {
      if (byTable.has(f.target)) {
        throw new Error(`${f.table_name}.${f.column_name} references ${f.target}, which the copy leaves out`);
      }
      continue;
    }
    dependsOn.get(f.table_name)?.add(f.target);
  }
  const ordered: CopiedTable[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    const s = state.get(name);
    if (s === 'done') return;
    if (s === 'visiting') throw new Error(`foreign keys form a cycle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'visiting');
    for (const dep of [...(dependsOn.get(name) ?? [])].sort()) visit(dep, [...path, name]);
    state.set(name, 'done');
    const table = copied.get(name);
    if (table) ordered.push(table);
  };
  for (const name of [...copied.keys()].sort()) visit(name, []);
  return { tables: ordered, excluded: excluded.sort((a, b) => a.name.localeCompare(b.name)) };
}
