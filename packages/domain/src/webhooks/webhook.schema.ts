import { z } from 'zod';

/** `<entity>.created|updated|deleted`, `<entity>.*` (all three) or `*` (every event). */
export const eventPatternSchema = z
  .string()
  .regex(
    /^(\*|[a-z][a-z0-9_]*\.(\*|created|updated|deleted))$/,
    'an event type is <entity>.created, <entity>.updated, <entity>.deleted, <entity>.* or *',
  );

const url = z.url({ protocol: /^https?$/, error: 'a valid http or https URL is required' }).max(2000);

export const createWebhookSchema = z.strictObject({
  url,
  events: z.array(eventPatternSchema).min(1, 'name at least one event type').max(100),
  description: z.string().max(255).nullable().optional(),
  isActive: z.boolean().optional(),
});
export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;

export const editWebhookSchema = z.strictObject({
  id: z.string().min(1),
  url: url.optional(),
  events: z.array(eventPatternSchema).min(1, 'name at least one event type').max(100).optional(),
  description: z.string().max(255).nullable().optional(),
  isActive: z.boolean().optional(),
});
export type EditWebhookInput = z.infer<typeof editWebhookSchema>;

export const idSchema = z.strictObject({ id: z.string().min(1) });

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
