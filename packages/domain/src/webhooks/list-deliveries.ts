import { BadRequestError } from '../shared/errors.js';
import type { UserContext } from '../trpc.js';
import { DELIVERY_STATUSES, type Paged, type PagedInput, paged } from './webhook.schema.js';
import { deliveryOf, type WebhookDelivery } from './webhook.view.js';

/** The delivery log, newest first; filters webhookId, status, eventId (each `x=` or `x[]=`). */
export async function listDeliveries(ctx: UserContext, input: PagedInput): Promise<Paged<WebhookDelivery>> {
  const { webhookId, status, eventId } = input.filters;
  for (const s of status ?? []) {
    if (!(DELIVERY_STATUSES as readonly string[]).includes(s)) {
      throw new BadRequestError(`status: "${s}" is not one of ${DELIVERY_STATUSES.join(', ')}`, 'status');
    }
  }
  for (const e of eventId ?? []) {
    if (!/^[0-9a-f-]{36}$/i.test(e)) throw new BadRequestError(`eventId: "${e}" is not an event id`, 'eventId');
  }
  const where = {
    subscriptionId: webhookId ? { in: webhookId } : undefined,
    status: status ? { in: status } : undefined,
    eventId: eventId ? { in: eventId } : undefined,
  };
  const [rows, total] = await Promise.all([
    ctx.db.webhookDelivery.findMany({
      where,
      include: { attemptLog: true },
      orderBy: [{ eventSeq: 'desc' }, { id: 'asc' }],
      skip: (input.page - 1) * input.itemsPerPage,
      take: input.itemsPerPage,
    }),
    ctx.db.webhookDelivery.count({ where }),
  ]);
  return paged(rows.map(deliveryOf), input, total);
}
