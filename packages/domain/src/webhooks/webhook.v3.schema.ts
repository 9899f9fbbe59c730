import { z } from 'zod';

/** v3 response shapes of the webhook endpoints, for the OpenAPI document (see webhook.view.ts). */
const dateTime = z.iso.datetime();

export const WebhookSubscription = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: dateTime,
  updatedAt: dateTime,
});

export const WebhookCreated = WebhookSubscription.extend({
  secret: z.string().meta({ description: 'the signing secret: shown in this answer only' }),
});

export const WebhookDeleted = z.object({ id: z.string() });

export const WebhookDelivery = z.object({
  id: z.string(),
  webhookId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  nextAttemptAt: dateTime.nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: dateTime.nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
  log: z.array(
    z.object({
      attempt: z.number().int(),
      statusCode: z.number().int().nullable(),
      error: z.string().nullable(),
      latencyMs: z.number().int().nullable(),
      startedAt: dateTime,
    }),
  ),
});

export const WebhookDeliveryId = z.strictObject({ id: z.string().min(1) });
