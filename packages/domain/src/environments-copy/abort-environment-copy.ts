import { tableIdent } from '@bo/db';
import { z } from 'zod';
import { readEnvironmentCatalog } from './catalog.js';
import type { CopyContext } from './copy-context.js';
import { copyInProgress } from './copy-state.js';

export const abortEnvironmentCopyInput = z.object({ to: z.string().min(1) });

const DELETE_BATCH = 5_000;

/**
 * `admin environment copy --abort <to>`: removes a copy or import in progress, its rows, its files
 * and its hidden environment. Itself safe to kill and run again: the state goes last.
 */
export async function abortEnvironmentCopy(
  ctx: CopyContext,
  input: z.infer<typeof abortEnvironmentCopyInput>,
): Promise<{ rows: number; files: number }> {
  const state = await copyInProgress(ctx.prisma, input.to);
  const env = state.targetEnvironmentId;
  let files = 0;
  for (;;) {
    const keys = await ctx.prisma.$queryRawUnsafe<{ k: string }[]>(
      'SELECT storage_key AS k FROM environment_copy_file WHERE target_environment_id = $1 ORDER BY storage_key LIMIT 500',
      env,
    );
    if (keys.length === 0) break;
    for (const { k } of keys) await ctx.storage.remove(k);
    await ctx.prisma.$executeRawUnsafe(
      'DELETE FROM environment_copy_file WHERE target_environment_id = $1 AND storage_key = ANY($2::text[])',
      env,
      keys.map((k) => k.k),
    );
    files += keys.length;
  }
  const catalog = await readEnvironmentCatalog(ctx.prisma);
  let rows = 0;
  // children first; the references into a table itself are still empty (set only by the last step)
  const names = [...catalog.tables.map((t) => t.name).reverse(), ...catalog.excluded.map((t) => t.name)];
  for (const name of names) {
    const t = tableIdent(name);
    for (;;) {
      const n = await ctx.prisma.$executeRawUnsafe(
        `DELETE FROM ${t} WHERE ctid IN (SELECT ctid FROM ${t} WHERE environment_id = $1 LIMIT ${DELETE_BATCH})`,
        env,
      );
      rows += n;
      if (n < DELETE_BATCH) break;
    }
  }
  await ctx.prisma.$transaction([
    ctx.prisma.$executeRawUnsafe('DELETE FROM environment_copy_deferred WHERE target_environment_id = $1', env),
    ctx.prisma.$executeRawUnsafe('DELETE FROM environment WHERE id = $1', env),
    ctx.prisma.$executeRawUnsafe('DELETE FROM environment_copy WHERE target_environment_id = $1', env),
  ]);
  ctx.progress?.finish(`copy to ${input.to} aborted: ${rows} rows and ${files} files removed`);
  return { rows, files };
}
