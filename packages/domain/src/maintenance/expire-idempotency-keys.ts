import { type PrismaClient, rawRead } from '@bo/db';
import { z } from 'zod';
import { defineJob } from '../shared/jobs.js';

/** Every hour (a schedule of the worker's): expireIdempotencyKeys. */
export const expireIdempotencyKeysJob = defineJob({ name: 'idempotency.expire', version: 1, payload: z.object({}) });

/**
 * Deletes the kept answers of Idempotency-Keys past their 24 hours (packages/runtime/src/idempotency.ts
 * already treats them as absent; this keeps the table small), in batches on the expiry index.
 */
export async function expireIdempotencyKeys(prisma: PrismaClient): Promise<number> {
  let total = 0;
  for (;;) {
    const [r] = await rawRead(prisma)<{ n: number }>(
      `WITH gone AS (
         DELETE FROM idempotency_key WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM idempotency_key WHERE expires_at < now() ORDER BY expires_at LIMIT 5000))
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [],
    );
    total += r?.n ?? 0;
    if ((r?.n ?? 0) < 5000) return total;
  }
}
