import { NotFoundError } from '../shared/errors.js';
import type { UserContext } from '../trpc.js';
import { assertTargetAllowed } from './assert-target.js';
import type { EditWebhookInput } from './webhook.schema.js';
import { type Webhook, webhookOf } from './webhook.view.js';

/** Changes the fields it names; deliveries already queued keep going to the new URL. */
export async function editWebhook(ctx: UserContext, input: EditWebhookInput): Promise<Webhook> {
  const existing = await ctx.db.webhookSubscription.findFirst({ where: { id: input.id } });
  if (!existing) throw new NotFoundError('webhook', input.id);
  if (input.url !== undefined) await assertTargetAllowed(input.url, ctx.services?.webhooks?.allowPrivateTargets ?? false);
  const row = await ctx.db.webhookSubscription.update({
    where: { id: input.id },
    data: {
      url: input.url,
      events: input.events ? [...new Set(input.events)] : undefined,
      description: input.description,
      isActive: input.isActive,
      updatedAt: ctx.clock.now(),
    },
  });
  return webhookOf(row);
}
