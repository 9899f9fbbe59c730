import { listQuerySchema } from '../shared/entity/index.js';
import { moduleProcedure, router } from '../trpc.js';
import { createWebhook } from './create-webhook.js';
import { deleteWebhook } from './delete-webhook.js';
import { editWebhook } from './edit-webhook.js';
import { getDelivery } from './get-delivery.js';
import { getWebhook } from './get-webhook.js';
import { listDeliveries } from './list-deliveries.js';
import { listWebhooks } from './list-webhooks.js';
import { resendDelivery } from './resend-delivery.js';
import { rotateWebhookSecret } from './rotate-webhook-secret.js';
import { createWebhookSchema, editWebhookSchema, idSchema } from './webhook.schema.js';
import {
  createdWebhookSchema,
  deletedWebhookSchema,
  listResultSchema,
  webhookDeliverySchema,
  webhookSchema,
} from './webhook.view.js';

const webhookPage = listResultSchema(webhookSchema);
const deliveryPage = listResultSchema(webhookDeliverySchema);

export const webhooksRouter = router({
  webhook: router({
    create: moduleProcedure('webhooks', 'write')
      .input(createWebhookSchema)
      .output(createdWebhookSchema)
      .mutation(({ ctx, input }) => createWebhook(ctx, input)),
    list: moduleProcedure('webhooks', 'read')
      .input(listQuerySchema)
      .output(webhookPage)
      .query(({ ctx, input }) => listWebhooks(ctx, input)),
    get: moduleProcedure('webhooks', 'read')
      .input(idSchema)
      .output(webhookSchema)
      .query(({ ctx, input }) => getWebhook(ctx, input.id)),
    edit: moduleProcedure('webhooks', 'write')
      .input(editWebhookSchema)
      .output(webhookSchema)
      .mutation(({ ctx, input }) => editWebhook(ctx, input)),
    rotateSecret: moduleProcedure('webhooks', 'write')
      .input(idSchema)
      .output(createdWebhookSchema)
      .mutation(({ ctx, input }) => rotateWebhookSecret(ctx, input.id)),
    delete: moduleProcedure('webhooks', 'write')
      .input(idSchema)
      .output(deletedWebhookSchema)
      .mutation(({ ctx, input }) => deleteWebhook(ctx, input.id)),
    delivery: router({
      list: moduleProcedure('webhooks', 'read')
        .input(listQuerySchema)
        .output(deliveryPage)
        .query(({ ctx, input }) => listDeliveries(ctx, input)),
      get: moduleProcedure('webhooks', 'read')
        .input(idSchema)
        .output(webhookDeliverySchema)
        .query(({ ctx, input }) => getDelivery(ctx, input.id)),
      resend: moduleProcedure('webhooks', 'write')
        .input(idSchema)
        .output(webhookDeliverySchema)
        .mutation(({ ctx, input }) => resendDelivery(ctx, input.id)),
    }),
  }),
});
