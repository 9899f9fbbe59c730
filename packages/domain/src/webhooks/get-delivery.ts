import { NotFoundError } from '../shared/errors.js';
import type { UserContext } from '../trpc.js';
import { deliveryOf, type WebhookDelivery } from './webhook.view.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getDelivery(ctx: UserContext, id: string): Promise<WebhookDelivery> {
  // a malformed id cannot name a delivery: 404, not a database type error
  if (!UUID.test(id)) throw new NotFoundError('webhook delivery', id);
  const row = await ctx.db.webhookDelivery.findFirst({ where: { id }, include: { attemptLog: true } });
  if (!row) throw new NotFoundError('webhook delivery', id);
  return deliveryOf(row);
}
