import type { Models } from '@bo/db';

/** A subscription as the domain answers it; the secret is never part of it (only create answers it). */
export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookAttempt {
  attempt: number;
  statusCode: number | null;
  error: string | null;
  latencyMs: number | null;
  startedAt: Date;
}

/** One delivery of an event to a subscription, with its attempts in order. */
export interface WebhookDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  /** only while the delivery is pending */
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  log: WebhookAttempt[];
}

export function webhookOf(w: Models.WebhookSubscriptionModel): Webhook {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    isActive: w.isActive,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}

export function deliveryOf(d: Models.WebhookDeliveryModel & { attemptLog: Models.WebhookAttemptModel[] }): WebhookDelivery {
  return {
    id: d.id,
    webhookId: d.subscriptionId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status as WebhookDelivery['status'],
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt : null,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    deliveredAt: d.deliveredAt,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    log: [...d.attemptLog]
      .sort((a, b) => a.attempt - b.attempt)
      .map((a) => ({
        attempt: a.attempt,
        statusCode: a.statusCode,
        error: a.error,
        latencyMs: a.latencyMs,
        startedAt: a.startedAt,
      })),
  };
}
