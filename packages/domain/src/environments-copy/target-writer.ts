import { type PrismaClient, tableIdent } from '@bo/db';
import type { FileStorage } from '../shared/storage.js';
import type { CopiedTable, EnvironmentCatalog } from './catalog.js';
import { type CopyState, saveProgress } from './copy-state.js';
import type { Remapper } from './remap.js';

/** rows per batch: one transaction, one statement; what the copy holds in memory at a time */
export const DEFAULT_BATCH_SIZE = 500;
const TX = { maxWait: 30_000, timeout: 120_000 };

/**
 * Writes source rows into the hidden target, a batch per transaction with the state's new
 * position, so that a killed copy has committed whole batches and knows which. The rows go in as
 * one JSON parameter (json_populate_recordset turns it into the table's own row type), so one
 * statement serves every table and no column is named by hand.
 */
export async function writeBatch(
  prisma: PrismaClient,
  state: CopyState,
  remap: Remapper,
  table: CopiedTable,
  rows: Record<string, unknown>[],
  lastKey: string[] | null,
): Promise<void> {
  const out: Record<string, unknown>[] = [];
  const deferred: { column: string; row_id: string; value: string }[] = [];
  for (const source of rows) {
    const row = remap.row(table, source);
    for (const column of table.selfReferences) {
      const value = row[column];
      if (typeof value !== 'string') continue;
      // the row it points to may come in a later batch: set once the table is complete
      deferred.push({ column, row_id: String(row.id), value });
      row[column] = null;
    }
    out.push(row);
  }
  const progress = state.progress.tables[table.name] ?? { rows: 0, lastKey: null, done: false };
  // the batch as text before the first await: the row objects die young (in the young generation)
  // instead of being promoted while the transaction's round trips run, and wait for a full collection
  const count = out.length;
  const rowsJson = count > 0 ? JSON.stringify(out) : null;
  const deferredJson = deferred.length > 0 ? JSON.stringify(deferred) : null;
  out.length = 0;
  deferred.length = 0;
  await prisma.$transaction(async (tx) => {
    if (rowsJson !== null) {
      const t = tableIdent(table.name);
      await tx.$executeRawUnsafe(`INSERT INTO ${t} SELECT * FROM json_populate_recordset(NULL::${t}, $1::json)`, rowsJson);
    }
    if (deferredJson !== null) {
      await tx.$executeRawUnsafe(
        `INSERT INTO environment_copy_deferred (target_environment_id, table_name, column_name, row_id, value)
         SELECT $1, $2, d.column, d.row_id, d.value FROM json_to_recordset($3::json) AS d("column" text, row_id text, value text)`,
        state.targetEnvironmentId,
        table.name,
        deferredJson,
      );
    }
    state.progress.tables[table.name] = { rows: progress.rows + count, lastKey, done: false };
    await saveProgress(tx, state);
  }, TX);
}

export async function finishTable(prisma: PrismaClient, state: CopyState, table: CopiedTable): Promise<void> {
  const progress = state.progress.tables[table.name] ?? { rows: 0, lastKey: null, done: false };
  state.progress.tables[table.name] = { ...progress, done: true };
  await saveProgress(prisma, state);
}

/** Registers a target file before writing it, so that an abort finds it even if its rows never commit. */
export async function registerFile(prisma: PrismaClient, state: CopyState, key: string): Promise<void> {
  await prisma.$executeRawUnsafe(
    'INSERT INTO environment_copy_file (target_environment_id, storage_key) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    state.targetEnvironmentId,
    key,
  );
}

const FILE_CHUNK = 1024 * 1024;

/** Copies a file a chunk at a time (bounded memory); false when the source file is missing. */
export async function copyFile(storage: FileStorage, from: string, to: string): Promise<boolean> {
  const size = await storage.size(from);
  if (size === null) return false;
  if (size === 0) await storage.writeAt(to, 0, new Uint8Array());
  for (let offset = 0; offset < size; offset += FILE_CHUNK) {
    const chunk = await storage.readAt(from, offset, Math.min(FILE_CHUNK, size - offset));
    await storage.writeAt(to, offset, chunk);
  }
  return true;
}

/**
 * The last step, one transaction: references into their own table are set, the state goes, and
 * the environment gets its name. Until this commits no request reaches the target.
 */
export async function completeCopy(prisma: PrismaClient, state: CopyState, catalog: EnvironmentCatalog): Promise<void> {
  await prisma.$transaction(async (tx) => {
    for (const table of catalog.tables) {
      for (const column of table.selfReferences) {
        const t = tableIdent(table.name);
        await tx.$executeRawUnsafe(
          `UPDATE ${t} SET ${tableIdent(column)} = d.value
             FROM environment_copy_deferred d
            WHERE d.target_environment_id = $1 AND d.table_name = $2 AND d.column_name = $3
              AND ${t}.environment_id = $1 AND ${t}.id = d.row_id`,
          state.targetEnvironmentId,
          table.name,
          column,
        );
      }
    }
    const taken = await tx.$queryRawUnsafe<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM environment WHERE name = $1',
      state.targetName,
    );
    if ((taken[0]?.n ?? 0) > 0) {
      throw new Error(`environment ${state.targetName} was created meanwhile: abort this copy, or remove that one and resume`);
    }
    await tx.$executeRawUnsafe(
      'DELETE FROM environment_copy_deferred WHERE target_environment_id = $1',
      state.targetEnvironmentId,
    );
    await tx.$executeRawUnsafe('DELETE FROM environment_copy_file WHERE target_environment_id = $1', state.targetEnvironmentId);
    await tx.$executeRawUnsafe('DELETE FROM environment_copy WHERE target_environment_id = $1', state.targetEnvironmentId);
    await tx.$executeRawUnsafe('UPDATE environment SET name = $2 WHERE id = $1', state.targetEnvironmentId, state.targetName);
  }, TX);
}
