import { NotFoundError } from '../shared/errors.js';
import type { UserContext } from '../trpc.js';
import { newSigningSecret } from './signature.js';
import { type Webhook, webhookOf } from './webhook.view.js';

/** how long the secret a rotation replaced keeps signing beside the new one */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

/**
 * Gives the subscription a new signing secret (answered this once). The one it replaces stays
 * valid for 24 hours: meanwhile every delivery carries both signatures in `webhook-signature`,
 * so a receiver can switch to the new secret at any moment of that day. A second rotation within
 * the day ends the first one's grace: only the secret it replaces stays valid beside the new one.
 */
export async function rotateWebhookSecret(ctx: UserContext, id: string): Promise<Webhook & { secret: string }> {
  const secret = newSigningSecret();
  const now = ctx.clock.now();
  // one statement: the current secret becomes the previous one as the new one is set
  const rotated = await ctx.sql.write<{ id: string }>(
    `UPDATE webhook_subscription
        SET previous_secret = secret, previous_secret_expires_at = $3, secret = $4, updated_at = $5
      WHERE environment_id = $1 AND id = $2
      RETURNING id`,
    [id, new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS), secret, now],
  );
  if (rotated.length === 0) throw new NotFoundError('webhook', id);
  const row = await ctx.db.webhookSubscription.findFirst({ where: { id } });
  if (!row) throw new NotFoundError('webhook', id);
  return { ...webhookOf(row), secret };
}
