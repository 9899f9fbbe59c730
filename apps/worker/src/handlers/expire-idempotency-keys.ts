import { expireIdempotencyKeys, expireIdempotencyKeysJob } from '@bo/domain/maintenance/expire-idempotency-keys';
import { jobHandler } from '../handlers.js';

/** Every hour: the answers kept for Idempotency-Keys past their 24 hours go. */
export const expireIdempotencyKeysHandler = jobHandler(
  expireIdempotencyKeysJob,
  { schedule: '41 * * * *', retryLimit: 2 },
  (_job, ctx) => expireIdempotencyKeys(ctx.prisma),
);
