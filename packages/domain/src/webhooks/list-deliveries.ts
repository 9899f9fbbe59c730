import type { ListQuery } from '@bo/db';
import type { ListResult } from '../shared/entity/index.js';
import { BadRequestError } from '../shared/errors.js';
import { assertOwnOrder, comparisonsOf, valuesOf } from '../shared/list-comparisons.js';
import type { UserContext } from '../trpc.js';
import { DELIVERY_STATUSES } from './webhook.schema.js';
import { deliveryOf, type WebhookDelivery } from './webhook.view.js';

/** The paths a delivery list is filtered by (eq, in), and the column each compares. */
const COLUMNS = { webhookId: 'subscriptionId', status: 'status', eventId: 'eventId' } as const;
const EVENT_ID = /^[0-9a-f-]{36}$/i;

/** The delivery log, newest first; filtered by webhookId, status and eventId (each eq or in). */
export async function listDeliveries(ctx: UserContext, query: ListQuery): Promise<ListResult<WebhookDelivery>> {
  const comparisons = comparisonsOf('webhook deliveries', query.where, {
    webhookId: ['eq', 'in'],
    status: ['eq', 'in'],
    eventId: ['eq', 'in'],
  });
  assertOwnOrder('webhook deliveries', query.orderBy);
  const values = (path: keyof typeof COLUMNS) => comparisons.filter((c) => c.path === path).flatMap(valuesOf);
  for (const s of values('status')) {
    if (!(DELIVERY_STATUSES as readonly string[]).includes(s)) {
      throw new BadRequestError(`status: "${s}" is not one of ${DELIVERY_STATUSES.join(', ')}`, 'status');
    }
  }
  for (const e of values('eventId')) {
    if (!EVENT_ID.test(e)) throw new BadRequestError(`eventId: "${e}" is not an event id`, 'eventId');
  }
  const where = { AND: comparisons.map((c) => ({ [COLUMNS[c.path as keyof typeof COLUMNS]]: { in: valuesOf(c) } })) };
  const [rows, count] = await Promise.all([
    ctx.db.webhookDelivery.findMany({
      where,
      include: { attemptLog: true },
      orderBy: [{ eventSeq: 'desc' }, { id: 'asc' }],
      skip: query.offset,
      take: query.limit,
    }),
    query.count ? ctx.db.webhookDelivery.count({ where }) : null,
  ]);
  return { items: rows.map(deliveryOf), count };
}
