import { z } from 'zod';
import { linkedToInput } from '../documents/linked-to.js';

/** sourceType: `ai` marks an AI-generated summary; null (or absent) when unclassified. */
export const SOURCE_TYPES = ['ai'] as const;

/** A new timeline message, in domain terms (sourceType since 2026-06). */
export const createMessageInput = z.strictObject({
  messageTypeId: z.string().min(1).nullable().optional(),
  linkedTo: linkedToInput,
  createdById: z.string().min(1).nullable().optional(),
  title: z.string().max(255).nullable().optional(),
  content: z.string().max(100_000).nullable().optional(),
  contentFields: z
    .array(z.strictObject({ title: z.string().max(255), value: z.string().max(10_000) }))
    .max(100)
    .optional(),
  displayDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, 'display_date is YYYY-MM-DD HH:MM:SS')
    .nullable()
    .optional(),
  sourceType: z.enum(SOURCE_TYPES).nullable().optional(),
});
export type CreateMessageInput = z.infer<typeof createMessageInput>;

export const createAttachmentInput = z.strictObject({
  messageId: z.string().min(1),
  documentId: z.string().min(1),
});
export type CreateAttachmentInput = z.infer<typeof createAttachmentInput>;
