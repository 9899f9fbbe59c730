import { z } from 'zod';
import { BusinessRuleError, NotFoundError } from '../shared/errors.js';
import { readEnvironmentCatalog } from './catalog.js';
import { batchSizeOf, type CopyContext, type CopyResult, environmentIdByName } from './copy-context.js';
import { beginCopy, type CopyState, copyInProgress, saveProgress } from './copy-state.js';
import { remapper } from './remap.js';
import { countRows, readFileKeys, readPage } from './source-reader.js';
import { completeCopy, copyFile, finishTable, registerFile, writeBatch } from './target-writer.js';

export const copyEnvironmentInput = z.object({ from: z.string().min(1), to: z.string().min(1) });
export const resumeEnvironmentCopyInput = z.object({ to: z.string().min(1) });

/**
 * `admin environment copy <from> <to>`: the data of one environment in a new one, with new ids,
 * its references remapped and its files copied; credentials, webhooks and the outbox left out
 * (catalog.ts says which and why). Table by table, a batch per transaction.
 */
export async function copyEnvironment(ctx: CopyContext, input: z.infer<typeof copyEnvironmentInput>): Promise<CopyResult> {
  const sourceId = await environmentIdByName(ctx.prisma, input.from);
  if (!sourceId) throw new NotFoundError('environment', input.from);
  const state = await beginCopy(ctx.prisma, {
    kind: 'copy',
    targetName: input.to,
    sourceEnvironmentId: sourceId,
    sourceName: input.from,
  });
  return runCopy(ctx, state);
}

/** `admin environment copy --resume <to>`: goes on after the last committed batch of a killed copy. */
export async function resumeEnvironmentCopy(
  ctx: CopyContext,
  input: z.infer<typeof resumeEnvironmentCopyInput>,
): Promise<CopyResult> {
  const state = await copyInProgress(ctx.prisma, input.to);
  if (state.kind !== 'copy' || !state.sourceEnvironmentId) {
    throw new BusinessRuleError(`${input.to} is an import in progress: resume it with admin environment import --resume`);
  }
  return runCopy(ctx, state);
}

async function runCopy(ctx: CopyContext, state: CopyState): Promise<CopyResult> {
  const sourceId = state.sourceEnvironmentId;
  if (!sourceId) throw new BusinessRuleError('a copy needs its source environment');
  const batch = batchSizeOf(ctx);
  const catalog = await readEnvironmentCatalog(ctx.prisma);
  const remap = remapper(state.salt, sourceId, state.targetEnvironmentId);

  let total = 0;
  let already = 0;
  for (const table of catalog.tables) {
    const p = state.progress.tables[table.name];
    already += p?.rows ?? 0;
    total += p?.done ? p.rows : await countRows(ctx.prisma, sourceId, table);
  }
  ctx.progress?.start(total, already);

  for (const table of catalog.tables) {
    const p = state.progress.tables[table.name];
    if (p?.done) continue;
    let after = p?.lastKey ?? null;
    for (;;) {
      const page = await readPage(ctx.prisma, sourceId, table, after, batch);
      // nothing of the page is referenced after writeBatch's first await (see there): the count and key only
      const count = page.rows.length;
      if (count === 0) break;
      after = page.lastKey;
      await writeBatch(
        ctx.prisma,
        state,
        remap,
        table,
        page.rows.map((r) => JSON.parse(r) as Record<string, unknown>),
        after,
      );
      ctx.onBatch?.(table.name, count);
      ctx.progress?.advance(table.name, count);
      if (count < batch) break;
    }
    await finishTable(ctx.prisma, state, table);
    ctx.progress?.tableDone(table.name, state.progress.tables[table.name]?.rows ?? 0);
  }

  // the files the copied rows name, each under its new key, in key order (resumable by the last key)
  const files = state.progress.files;
  while (!files.done) {
    const keys = await readFileKeys(ctx.prisma, sourceId, catalog, files.lastKey, batch);
    for (const key of keys) {
      const target = remap.storageKey(key);
      await registerFile(ctx.prisma, state, target);
      if (await copyFile(ctx.storage, key, target)) files.count += 1;
      else ctx.progress?.note(`file ${key} is missing in the source storage: its row is copied without it`);
    }
    files.lastKey = keys[keys.length - 1] ?? files.lastKey;
    files.done = keys.length < batch;
    await saveProgress(ctx.prisma, state);
  }

  await completeCopy(ctx.prisma, state, catalog);
  const rows = Object.values(state.progress.tables).reduce((n, t) => n + t.rows, 0);
  ctx.progress?.finish(`environment ${state.targetName} complete: ${rows} rows, ${files.count} files`);
  return { environment: { id: state.targetEnvironmentId, name: state.targetName }, rows, files: files.count };
}
