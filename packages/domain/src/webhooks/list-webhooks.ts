import type { UserContext } from '../trpc.js';
import { type Paged, type PagedInput, paged } from './webhook.schema.js';
import { type Webhook, webhookOf } from './webhook.view.js';

export async function listWebhooks(ctx: UserContext, input: PagedInput): Promise<Paged<Webhook>> {
  const [rows, total] = await Promise.all([
    ctx.db.webhookSubscription.findMany({
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip: (input.page - 1) * input.itemsPerPage,
      take: input.itemsPerPage,
    }),
    ctx.db.webhookSubscription.count(),
  ]);
  return paged(rows.map(webhookOf), input, total);
}
