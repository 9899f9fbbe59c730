import { SCOPED_ENVIRONMENT } from '@bo/db';
import { newEntityId } from '../shared/ids.js';
import type { UserContext } from '../trpc.js';
import { assertTargetAllowed } from './assert-target.js';
import { newSigningSecret } from './signature.js';
import type { CreateWebhookInput } from './webhook.schema.js';
import { type Webhook, webhookOf } from './webhook.view.js';

/** Subscribes a URL to event types; the signing secret is in this answer only. */
export async function createWebhook(ctx: UserContext, input: CreateWebhookInput): Promise<Webhook & { secret: string }> {
  await assertTargetAllowed(input.url, ctx.services?.webhooks?.allowPrivateTargets ?? false);
  const secret = newSigningSecret();
  const row = await ctx.db.webhookSubscription.create({
    data: {
      id: newEntityId('webhook'),
      environmentId: SCOPED_ENVIRONMENT,
      url: input.url,
      events: [...new Set(input.events)],
      description: input.description ?? null,
      isActive: input.isActive ?? true,
      secret,
    },
  });
  return { ...webhookOf(row), secret };
}
