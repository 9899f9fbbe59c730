import { z } from 'zod';
import { defineJob, type JobContext } from '../shared/jobs.js';

/** Every minute (a schedule of the worker's): expireUploads. */
export const expireUploadsJob = defineJob({ name: 'uploads.expire', version: 1, payload: z.object({}) });

/**
 * Removes uploads past their expiry that never became a document, with their
 * bytes. The rows stay locked while their files are removed, so a chunk
 * arriving at that moment waits and then finds no upload (404); an upload
 * whose chunk is being written (its write lease held) is left for the next run.
 */
export async function expireUploads(ctx: JobContext, batchSize = 200): Promise<number> {
  const storage = ctx.storage;
  if (!storage) throw new Error('expireUploads needs file storage');
  let total = 0;
  for (;;) {
    const removed = await ctx.prisma.$transaction(
      async (tx) => {
        const rows = await tx.$queryRawUnsafe<{ id: string; storage_key: string }[]>(
          `SELECT id, storage_key FROM chunked_upload
           WHERE expires_at < now() AND used_at IS NULL
             AND (write_lease IS NULL OR write_lease_until < now())
           ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
          batchSize,
        );
        for (const r of rows) await storage.remove(r.storage_key);
        if (rows.length) {
          await tx.$executeRawUnsafe(
            `DELETE FROM chunked_upload WHERE id = ANY($1::text[])`,
            rows.map((r) => r.id),
          );
        }
        return rows.length;
      },
      { timeout: 60_000 },
    );
    total += removed;
    if (removed < batchSize) break;
  }
  if (total) ctx.log.info({ removed: total }, 'expired uploads removed');
  return total;
}
