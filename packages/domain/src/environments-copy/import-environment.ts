import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { BusinessRuleError } from '../shared/errors.js';
import { type CopiedTable, readEnvironmentCatalog } from './catalog.js';
import { batchSizeOf, type CopyContext, type CopyResult } from './copy-context.js';
import { beginCopy, type CopyState, copyInProgress, saveProgress } from './copy-state.js';
import { type ExportHeader, type ExportRecord, FORMAT_VERSION, isHeader } from './export-format.js';
import { remapper } from './remap.js';
import { knowsSchema } from './schema-version.js';
import { completeCopy, finishTable, registerFile, writeBatch } from './target-writer.js';

export const importEnvironmentInput = z.object({ file: z.string().min(1), environment: z.string().min(1) });

/**
 * `admin environment import <file> <env>`: a new environment from an export file, with new ids
 * (derived from the file's under a fresh salt, so one file can be imported several times, beside
 * its original too). Hidden until complete, resumable (`--resume`) and removable (`copy --abort`)
 * like a copy.
 */
export async function importEnvironment(ctx: CopyContext, input: z.infer<typeof importEnvironmentInput>): Promise<CopyResult> {
  const header = await readHeader(input.file);
  const state = await beginCopy(ctx.prisma, {
    kind: 'import',
    targetName: input.environment,
    sourceEnvironmentId: header.environment.id,
    sourceName: `${header.environment.name} (${path.basename(input.file)})`,
  });
  return runImport(ctx, state, input.file);
}

export async function resumeEnvironmentImport(
  ctx: CopyContext,
  input: z.infer<typeof importEnvironmentInput>,
): Promise<CopyResult> {
  const state = await copyInProgress(ctx.prisma, input.environment);
  const header = await readHeader(input.file);
  if (state.kind !== 'import' || header.environment.id !== state.sourceEnvironmentId) {
    throw new BusinessRuleError(`the import in progress for ${input.environment} is not of this file`);
  }
  return runImport(ctx, state, input.file);
}

function lines(file: string) {
  return createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Number.POSITIVE_INFINITY });
}

async function readHeader(file: string): Promise<ExportHeader> {
  const rl = lines(file);
  try {
    for await (const line of rl) {
      const header: unknown = JSON.parse(line);
      if (!isHeader(header)) throw new BusinessRuleError(`${file} is not an environment export`);
      if (header.version !== FORMAT_VERSION) {
        throw new BusinessRuleError(`${file} is of format version ${header.version}; this server reads ${FORMAT_VERSION}`);
      }
      return header;
    }
  } finally {
    rl.close();
  }
  throw new BusinessRuleError(`${file} is empty`);
}

async function runImport(ctx: CopyContext, state: CopyState, file: string): Promise<CopyResult> {
  const batch = batchSizeOf(ctx);
  const catalog = await readEnvironmentCatalog(ctx.prisma);
  const tables = new Map(catalog.tables.map((t) => [t.name, t]));
  const remap = remapper(state.salt, state.sourceEnvironmentId, state.targetEnvironmentId);
  const seen = new Map<string, number>();
  let current: CopiedTable | null = null;
  let buffer: Record<string, unknown>[] = [];
  let ended = false;
  let files = 0;

  const flush = async () => {
    if (!current || buffer.length === 0) return;
    // the rows are not referenced past writeBatch's first await, so they die young (see there)
    const rows = buffer;
    const count = rows.length;
    buffer = [];
    await writeBatch(ctx.prisma, state, remap, current, rows, null);
    ctx.onBatch?.(current.name, count);
    ctx.progress?.advance(current.name, count);
  };
  const closeTable = async () => {
    await flush();
    if (current && !state.progress.tables[current.name]?.done) {
      await finishTable(ctx.prisma, state, current);
      ctx.progress?.tableDone(current.name, state.progress.tables[current.name]?.rows ?? 0);
    }
    current = null;
  };

  let first = true;
  for await (const line of lines(file)) {
    if (line === '') continue;
    const record: unknown = JSON.parse(line);
    if (first) {
      first = false;
      if (!isHeader(record)) throw new BusinessRuleError(`${file} is not an environment export`);
      if (!(await knowsSchema(ctx.prisma, record.schema))) {
        throw new BusinessRuleError(
          `${file} was exported at schema ${record.schema}, which this database does not have: migrate it first`,
        );
      }
      const total = record.tables.reduce((n, t) => n + t.rows, 0);
      const already = Object.values(state.progress.tables).reduce((n, t) => n + t.rows, 0);
      ctx.progress?.start(total, already);
      continue;
    }
    const r = record as ExportRecord;
    if ('table' in r) {
      const table = tables.get(r.table);
      if (!table) throw new BusinessRuleError(`${file} holds rows of table ${r.table}, which this database does not copy`);
      if (current !== table) {
        await closeTable();
        current = table;
      }
      const n = (seen.get(table.name) ?? 0) + 1;
      seen.set(table.name, n);
      const progress = state.progress.tables[table.name];
      // a resumed import skips what the killed one committed: the file's order is fixed
      if (progress?.done || n <= (progress?.rows ?? 0)) continue;
      buffer.push(r.row);
      if (buffer.length >= batch) await flush();
    } else if ('file' in r) {
      await closeTable();
      const target = remap.storageKey(r.file);
      if (r.offset === 0) {
        await registerFile(ctx.prisma, state, target);
        files += 1;
      }
      await ctx.storage.writeAt(target, r.offset, Buffer.from(r.data, 'base64'));
    } else if ('end' in r) {
      await closeTable();
      ended = true;
    }
  }
  if (!ended) throw new BusinessRuleError(`${file} ends before its last record: it is truncated`);
  state.progress.files = { lastKey: null, count: files, done: true };
  await saveProgress(ctx.prisma, state);
  await completeCopy(ctx.prisma, state, catalog);
  const rows = Object.values(state.progress.tables).reduce((n, t) => n + t.rows, 0);
  ctx.progress?.finish(`environment ${state.targetName} imported: ${rows} rows, ${files} files`);
  return { environment: { id: state.targetEnvironmentId, name: state.targetName }, rows, files };
}
