import { z } from 'zod';
import { linkedToSchema } from '../documents/linked-to.js';

/** source_type: `ai` marks an AI-generated summary; null (or absent) when unclassified. */
export const SOURCE_TYPES = ['ai'] as const;

/** Write shape of timeline/message (reference PostMessage, plus source_type of 2026-06). */
export const createMessageSchema = z.strictObject({
  messagetype_id: z.string().min(1).nullable().optional(),
  linked_to: linkedToSchema,
  created_by_id: z.string().min(1).nullable().optional(),
  title: z.string().max(255).nullable().optional(),
  content: z.string().max(100_000).nullable().optional(),
  content_fields: z
    .array(z.strictObject({ title: z.string().max(255), value: z.string().max(10_000) }))
    .max(100)
    .optional(),
  display_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, 'display_date is YYYY-MM-DD HH:MM:SS')
    .nullable()
    .optional(),
  source_type: z.enum(SOURCE_TYPES).nullable().optional(),
});
export type CreateMessageInput = z.infer<typeof createMessageSchema>;

export const createAttachmentSchema = z.strictObject({
  message_id: z.string().min(1),
  document_id: z.string().min(1),
});
export type CreateAttachmentInput = z.infer<typeof createAttachmentSchema>;
