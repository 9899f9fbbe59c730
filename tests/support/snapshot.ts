import type { TestDatabase } from './database.js';

/** A fingerprint of every row of every table of the service's schema: equal before and after means nothing changed. */
export async function databaseFingerprint(db: TestDatabase): Promise<Record<string, string>> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const out: Record<string, string> = {};
  for (const { table_name } of tables) {
    const [row] = await db.query<{ rows: string; digest: string | null }>(
      `SELECT count(*)::text AS rows, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM "${table_name}" t`,
    );
    out[table_name] = `${row?.rows}:${row?.digest}`;
  }
  return out;
}
