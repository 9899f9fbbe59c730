import { z } from 'zod';
import { linkedToField } from '../documents/linked-to.js';
import { defineEntity, f, type TargetEntity } from '../shared/entity/index.js';

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

/** A message on the timeline of the one entity it is linked to; `sourceType` `ai` marks an AI-generated summary. */
export const message = defineEntity({
  type: 'message',
  table: 'timeline_message',
  module: 'timeline',
  fields: {
    id: f.id(),
    messageType: f.ref(() => messageType, messageTypeReference, { column: 'message_type_id' }),
    linkedTo: linkedToField('timeline_message', 'timeline'),
    attachments: f.many(() => attachment, z.object({ id: z.string(), documentId: z.string() }), {
      remote: 'message_id',
      writable: false,
    }),
    createdById: f.string({ writable: false, filter: false, sort: false }),
    title: f.string(),
    content: f.string(),
    contentFields: f.json(z.array(z.object({ title: z.string(), value: z.string() }))),
    displayDate: f.datetime(),
    sourceType: f.string(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});

export type MessageType = z.infer<typeof messageType.schema>;
export type Attachment = z.infer<typeof attachment.schema>;
export type Message = z.infer<typeof message.schema>;
