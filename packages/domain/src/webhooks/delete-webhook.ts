import { NotFoundError } from '../shared/errors.js';
import type { UserContext } from '../trpc.js';

/** Removes the subscription with its queued deliveries and their log. */
export async function deleteWebhook(ctx: UserContext, id: string): Promise<{ id: string }> {
  const { count } = await ctx.db.webhookSubscription.deleteMany({ where: { id } });
  if (count === 0) throw new NotFoundError('webhook', id);
  return { id };
}
