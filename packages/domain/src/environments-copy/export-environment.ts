import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { z } from 'zod';
import { NotFoundError } from '../shared/errors.js';
import { readEnvironmentCatalog } from './catalog.js';
import { batchSizeOf, type CopyContext, environmentIdByName } from './copy-context.js';
import { type ExportHeader, FILE_CHUNK_BYTES, FORMAT, FORMAT_VERSION } from './export-format.js';
import { schemaVersion } from './schema-version.js';
import { countRows, readFileKeys, readPage } from './source-reader.js';

export const exportEnvironmentInput = z.object({ environment: z.string().min(1), file: z.string().min(1) });

/**
 * `admin environment export <env> <file>`: the environment's copied tables and files as one gzip
 * NDJSON file (export-format.ts), streamed a page at a time. Written beside the target and renamed
 * when complete, so a file at that name is always whole.
 */
export async function exportEnvironment(
  ctx: CopyContext,
  input: z.infer<typeof exportEnvironmentInput>,
): Promise<{ rows: number; files: number }> {
  const envId = await environmentIdByName(ctx.prisma, input.environment);
  if (!envId) throw new NotFoundError('environment', input.environment);
  const batch = batchSizeOf(ctx);
  const catalog = await readEnvironmentCatalog(ctx.prisma);
  const tables: ExportHeader['tables'] = [];
  for (const table of catalog.tables) tables.push({ name: table.name, rows: await countRows(ctx.prisma, envId, table) });
  const header: ExportHeader = {
    format: FORMAT,
    version: FORMAT_VERSION,
    environment: { id: envId, name: input.environment },
    schema: await schemaVersion(ctx.prisma),
    exportedAt: new Date().toISOString(),
    tables,
  };

  const partial = `${input.file}.partial`;
  const gzip = createGzip();
  const out = createWriteStream(partial);
  gzip.pipe(out);
  const write = async (line: string) => {
    // wait for the disk when gzip's buffer is full: memory stays at one page
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
  };
  let rows = 0;
  let files = 0;
  try {
    await write(JSON.stringify(header));
    ctx.progress?.start(
      tables.reduce((n, t) => n + t.rows, 0),
      0,
    );
    for (const table of catalog.tables) {
      let after: string[] | null = null;
      const prefix = `{"table":${JSON.stringify(table.name)},"row":`;
      for (;;) {
        const page = await readPage(ctx.prisma, envId, table, after, batch);
        for (const r of page.rows) await write(`${prefix}${r}}`);
        rows += page.rows.length;
        if (page.rows.length > 0) {
          ctx.onBatch?.(table.name, page.rows.length);
          ctx.progress?.advance(table.name, page.rows.length);
        }
        after = page.lastKey;
        if (page.rows.length < batch) break;
      }
      ctx.progress?.tableDone(table.name, tables.find((t) => t.name === table.name)?.rows ?? 0);
    }
    let afterKey: string | null = null;
    for (;;) {
      const keys = await readFileKeys(ctx.prisma, envId, catalog, afterKey, batch);
      for (const key of keys) {
        const size = await ctx.storage.size(key);
        if (size === null) {
          ctx.progress?.note(`file ${key} is missing in storage: its row is exported without it`);
          continue;
        }
        files += 1;
        if (size === 0) await write(JSON.stringify({ file: key, offset: 0, data: '' }));
        for (let offset = 0; offset < size; offset += FILE_CHUNK_BYTES) {
          const chunk = await ctx.storage.readAt(key, offset, Math.min(FILE_CHUNK_BYTES, size - offset));
          await write(JSON.stringify({ file: key, offset, data: chunk.toString('base64') }));
        }
      }
      afterKey = keys[keys.length - 1] ?? afterKey;
      if (keys.length < batch) break;
    }
    await write(JSON.stringify({ end: true, rows, files }));
    gzip.end();
    await finished(out);
    await rename(partial, input.file);
  } catch (err) {
    gzip.destroy();
    out.destroy();
    await rm(partial, { force: true });
    throw err;
  }
  ctx.progress?.finish(`environment ${input.environment} exported to ${input.file}: ${rows} rows, ${files} files`);
  return { rows, files };
}
