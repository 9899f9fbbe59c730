import type { Models } from '@bo/db';
import { z } from 'zod';
import { DELIVERY_STATUSES } from './webhook.schema.js';

/** A subscription as the domain answers it; the secret is never part of it (only create and rotateSecret answer it). */
export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** the answer of create and rotateSecret: the subscription and, this once, its signing secret */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });

export const webhookAttemptSchema = z.object({
  attempt: z.number().int(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  latencyMs: z.number().int().nullable(),
  startedAt: z.date(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** One delivery of an event to a subscription, with its attempts in order. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  webhookId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** only while the delivery is pending */
  nextAttemptAt: z.date().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  log: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** A page of a webhook list, as `paged` answers it. */
/** A page of a domain list: its items and the size of the whole filtered list (null when not asked for). */
export function listResultSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), count: z.number().int().nullable() });
}

export const deletedWebhookSchema = z.object({ id: z.string() });

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
