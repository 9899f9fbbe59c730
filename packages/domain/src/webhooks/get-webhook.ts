import { NotFoundError } from '../shared/errors.js';
import type { UserContext } from '../trpc.js';
import { webhookV3 } from './webhook.view.js';

export async function getWebhook(ctx: UserContext, id: string): Promise<Record<string, unknown>> {
  const row = await ctx.db.webhookSubscription.findFirst({ where: { id } });
  if (!row) throw new NotFoundError('webhook', id);
  return webhookV3(row);
}
