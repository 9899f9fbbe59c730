import { createWebhookSchema, editWebhookSchema, idSchema } from '@bo/domain/webhooks/webhook.schema';
import type { Webhook, WebhookDelivery } from '@bo/domain/webhooks/webhook.view';
import { z } from 'zod';
import { commandEndpoint, listEndpoint, type NamedSchema, queryEndpoint } from './types.js';

const dateTime = z.iso.datetime();

/** v3 Webhook.Subscription */
const WebhookSubscription = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: dateTime,
  updatedAt: dateTime,
});

const WebhookCreated = WebhookSubscription.extend({
  secret: z.string().meta({ description: 'the signing secret: shown in this answer only' }),
});

const WebhookDeleted = z.object({ id: z.string() });

/** v3 Webhook.Delivery */
const WebhookDeliveryV3 = z.object({
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

const WebhookDeliveryId = z.strictObject({ id: z.string().min(1) });

const subscription: NamedSchema = { name: 'Webhook.Subscription', schema: WebhookSubscription };
const created: NamedSchema = { name: 'Webhook.Created', schema: WebhookCreated };
const deleted: NamedSchema = { name: 'Webhook.Deleted', schema: WebhookDeleted };
const delivery: NamedSchema = { name: 'Webhook.Delivery', schema: WebhookDeliveryV3 };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function webhookV3(w: Webhook): z.infer<typeof WebhookSubscription> {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    isActive: w.isActive,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

export function deliveryV3(d: WebhookDelivery): z.infer<typeof WebhookDeliveryV3> {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: iso(d.nextAttemptAt),
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    deliveredAt: iso(d.deliveredAt),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    log: d.log.map((a) => ({
      attempt: a.attempt,
      statusCode: a.statusCode,
      error: a.error,
      latencyMs: a.latencyMs,
      startedAt: a.startedAt.toISOString(),
    })),
  };
}

const byId = (id: string | undefined) => ({ id: id as string });

/** Webhook subscriptions and their delivery log (issue 5). */
export const webhookEndpoints = {
  'webhook.create': commandEndpoint({
    call: (c) => c.webhooks.webhook.create,
    map: (w) => ({ ...webhookV3(w), secret: w.secret }),
    status: 201,
    doc: {
      summary: 'Subscribes a URL to events; the signing secret is in this answer only',
      request: { name: 'Webhook.Create', schema: createWebhookSchema },
      response: created,
      errors: [400, 403, 422],
    },
  }),
  'webhook.list': listEndpoint<Webhook>({
    call: (c) => c.webhooks.webhook.list,
    filters: {},
    map: webhookV3,
    doc: { summary: 'Webhook subscriptions, paged', response: subscription, errors: [400, 403] },
  }),
  'webhook.get': queryEndpoint({
    call: (c) => c.webhooks.webhook.get,
    withId: true,
    mapInput: byId,
    map: webhookV3,
    doc: { summary: 'One webhook subscription', response: subscription, errors: [403, 404] },
  }),
  'webhook.edit': commandEndpoint({
    call: (c) => c.webhooks.webhook.edit,
    map: webhookV3,
    status: 200,
    doc: {
      summary: 'Changes a subscription',
      request: { name: 'Webhook.Edit', schema: editWebhookSchema },
      response: subscription,
      errors: [400, 403, 404, 422],
    },
  }),
  'webhook.rotateSecret': commandEndpoint({
    call: (c) => c.webhooks.webhook.rotateSecret,
    map: (w) => ({ ...webhookV3(w), secret: w.secret }),
    status: 200,
    doc: {
      summary:
        'Gives the subscription a new signing secret, answered this once; the previous one keeps signing beside it for 24 hours',
      request: { name: 'Webhook.RotateSecret', schema: idSchema },
      response: created,
      errors: [400, 403, 404],
    },
  }),
  'webhook.delete': commandEndpoint({
    call: (c) => c.webhooks.webhook.delete,
    status: 200,
    doc: {
      summary: 'Ends a subscription',
      request: { name: 'Webhook.Delete', schema: idSchema },
      response: deleted,
      errors: [400, 403, 404],
    },
  }),
  'webhook.delivery.list': listEndpoint<WebhookDelivery>({
    call: (c) => c.webhooks.webhook.delivery.list,
    filters: { webhookId: 'webhookId', status: 'status', eventId: 'eventId' },
    map: deliveryV3,
    doc: { summary: 'The delivery log: status, attempts, latency, errors', response: delivery, errors: [400, 403] },
  }),
  'webhook.delivery.get': queryEndpoint({
    call: (c) => c.webhooks.webhook.delivery.get,
    withId: true,
    mapInput: byId,
    map: deliveryV3,
    doc: { summary: 'One delivery with every attempt', response: delivery, errors: [403, 404] },
  }),
  'webhook.delivery.resend': commandEndpoint({
    call: (c) => c.webhooks.webhook.delivery.resend,
    map: deliveryV3,
    status: 200,
    doc: {
      summary: 'Sends a delivery again (a failed one included)',
      request: { name: 'Webhook.Delivery.Resend', schema: WebhookDeliveryId },
      response: delivery,
      errors: [400, 403, 404, 422],
    },
  }),
};
