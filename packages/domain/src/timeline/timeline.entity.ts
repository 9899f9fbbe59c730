import { z } from 'zod';
import { linkedToField } from '../documents/linked-to.js';
import { defineEntity, f, type TargetEntity } from '../shared/entity/index.js';
import { targets } from '../shared/entity/targets.js';

/** A kind of timeline message; reference data, read-only. */
export const messageType = defineEntity({
  type: 'messagetype',
  table: 'timeline_message_type',
  module: 'timeline',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: {
    id: f.id(),
    label: f.requiredString(),
    blocked: f.boolean(),
    logAction: f.string({ filter: false, sort: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export const messageTypeReference = z.object({
  id: z.string(),
  label: z.string(),
  blocked: z.boolean(),
  logAction: z.string().nullable(),
});

/** A document attached to a timeline message. */
export const attachment = defineEntity({
  type: 'attachment',
  table: 'timeline_attachment',
  module: 'timeline',
  fields: {
    id: f.id(),
    message: f.ref((): TargetEntity => message, z.object({ id: z.string() }), { column: 'message_id' }),
    /** a document of the documents module: its id only */
    documentId: f.requiredString({ writable: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

/** A message on the timeline of the one entity it is linked to; messages are not changed once written. */
export const message = defineEntity({
  type: 'message',
  table: 'timeline_message',
  module: 'timeline',
  fields: {
    id: f.id(),
    messageType: f.ref(() => messageType, messageTypeReference, { column: 'message_type_id', writeAs: 'id' }),
    linkedTo: linkedToField('timeline_message', 'timeline'),
    attachments: f.many(() => attachment, z.object({ id: z.string(), documentId: z.string() }), {
      remote: 'message_id',
      writable: false,
    }),
    /** the author: a user of the environment, the caller when a write names none */
    createdById: f.string({ references: () => targets.user, filter: false, sort: false, input: z.string().min(1).nullable() }),
    title: f.string({ input: z.string().max(255).nullable() }),
    content: f.string({ input: z.string().max(100_000).nullable() }),
    contentFields: f.json(z.array(z.object({ title: z.string(), value: z.string() })), {
      input: z.array(z.strictObject({ title: z.string().max(255), value: z.string().max(10_000) })).max(100),
    }),
    /** written as `YYYY-MM-DD HH:MM:SS` */
    displayDate: f.datetime({
      input: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, 'display_date is YYYY-MM-DD HH:MM:SS')
        .nullable(),
    }),
    /** `ai` marks an AI-generated summary; null when unclassified (since 2026-06) */
    sourceType: f.string({ input: z.enum(['ai']).nullable() }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export type MessageType = z.infer<typeof messageType.schema>;
export type Attachment = z.infer<typeof attachment.schema>;
export type Message = z.infer<typeof message.schema>;
