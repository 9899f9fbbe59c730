import { NotFoundError } from '../shared/errors.js';
import type { UserContext } from '../trpc.js';
import { type Webhook, webhookOf } from './webhook.view.js';

export async function getWebhook(ctx: UserContext, id: string): Promise<Webhook> {
  const row = await ctx.db.webhookSubscription.findFirst({ where: { id } });
  if (!row) throw new NotFoundError('webhook', id);
  return webhookOf(row);
}
