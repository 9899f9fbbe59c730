import type { Models } from '@bo/db';
import { v3DateTime } from '../shared/format.js';

/** v3 shape of a subscription; the secret is never part of it (only create answers it). */
export function webhookV3(w: Models.WebhookSubscriptionModel): Record<string, unknown> {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    isActive: w.isActive,
    createdAt: v3DateTime(w.createdAt),
    updatedAt: v3DateTime(w.updatedAt),
  };
}

export function deliveryV3(
  d: Models.WebhookDeliveryModel & { attemptLog: Models.WebhookAttemptModel[] },
): Record<string, unknown> {
  return {
    id: d.id,
    webhookId: d.subscriptionId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? v3DateTime(d.nextAttemptAt) : null,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    deliveredAt: v3DateTime(d.deliveredAt),
    createdAt: v3DateTime(d.createdAt),
    updatedAt: v3DateTime(d.updatedAt),
    log: [...d.attemptLog]
      .sort((a, b) => a.attempt - b.attempt)
      .map((a) => ({
        attempt: a.attempt,
        statusCode: a.statusCode,
        error: a.error,
        latencyMs: a.latencyMs,
        startedAt: v3DateTime(a.startedAt),
      })),
  };
}
