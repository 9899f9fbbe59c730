import type { ListQuery } from '@bo/db';
import type { ListResult } from '../shared/entity/index.js';
import { assertOwnOrder, comparisonsOf } from '../shared/list-comparisons.js';
import type { UserContext } from '../trpc.js';
import { type Webhook, webhookOf } from './webhook.view.js';

/** The subscriptions, oldest first: a page of them (offset, limit) and, when asked, how many there are. */
export async function listWebhooks(ctx: UserContext, query: ListQuery): Promise<ListResult<Webhook>> {
  comparisonsOf('webhooks', query.where, {});
  assertOwnOrder('webhooks', query.orderBy);
  const [rows, count] = await Promise.all([
    ctx.db.webhookSubscription.findMany({
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip: query.offset,
      take: query.limit,
    }),
    query.count ? ctx.db.webhookSubscription.count() : null,
  ]);
  return { items: rows.map(webhookOf), count };
}
