import { BusinessRuleError, NotFoundError } from '../shared/errors.js';
import type { UserContext } from '../trpc.js';
import { getDelivery } from './get-delivery.js';
import type { WebhookDelivery } from './webhook.view.js';

/**
 * Puts a failed delivery back in the queue with a fresh retry window. It goes
 * out before the subscription's later pending deliveries, keeping event order.
 */
export async function resendDelivery(ctx: UserContext, id: string): Promise<WebhookDelivery> {
  await getDelivery(ctx, id);
  const now = ctx.clock.now();
  const { count } = await ctx.db.webhookDelivery.updateMany({
    where: { id, status: 'failed' },
    data: { status: 'pending', nextAttemptAt: now, retryFrom: now, leaseUntil: null, updatedAt: now },
  });
  if (count === 0) {
    const current = await ctx.db.webhookDelivery.findFirst({ where: { id } });
    if (!current) throw new NotFoundError('webhook delivery', id);
    throw new BusinessRuleError(`only a failed delivery can be sent again; this one is ${current.status}`);
  }
  return getDelivery(ctx, id);
}
