import type { Models } from '@bo/db';
import { linkedToV2, linkedToV3 } from '../documents/linked-to.js';
import { v2DateTime, v3DateTime } from '../shared/format.js';
import type { ResourceDefinition } from '../shared/resources/definition.js';
import { browserDownloadPath } from '../uploads/upload.view.js';
import { createAttachment } from './create-attachment.js';
import { createMessage } from './create-message.js';
import {
  type CreateAttachmentInput,
  type CreateMessageInput,
  createAttachmentSchema,
  createMessageSchema,
} from './message.schema.js';
import { attachmentSql, messageSql, messageTypeSql } from './timeline.sql.js';

type MessageRow = Models.TimelineMessageModel & {
  messageType: Models.TimelineMessageTypeModel | null;
  attachments: Models.TimelineAttachmentModel[];
};

function messageTypeV2(t: Models.TimelineMessageTypeModel) {
  return { id: t.id, label: t.label, blocked: t.blocked, log_action: t.logAction };
}

function attachmentV2(a: Models.TimelineAttachmentModel) {
  return {
    id: a.id,
    attachment_type: { id: 'document', label: 'Document' },
    title: null,
    document_id: a.documentId,
    download_link: browserDownloadPath('document', a.documentId),
  };
}

/** timeline/message: reference GetMessage plus source_type (2026-06). */
export const messageResource: ResourceDefinition<MessageRow, CreateMessageInput> = {
  name: 'timeline/message',
  entityType: 'message',
  module: 'timeline',
  sql: messageSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: (db, ids) =>
    db.timelineMessage.findMany({ where: { id: { in: ids } }, include: { messageType: true, attachments: true } }),
  views: {
    v2: (m) => ({
      id: m.id,
      attachments: m.attachments.map(attachmentV2),
      message_type: m.messageType ? messageTypeV2(m.messageType) : null,
      linked_to: linkedToV2(m),
      created_by: m.createdById ? { id: m.createdById, type: 'user', label: null, image: null } : null,
      created_at: v2DateTime(m.createdAt),
      updated_at: v2DateTime(m.updatedAt),
      title: m.title,
      content_fields: m.contentFields,
      content: m.content,
      display_date: v2DateTime(m.displayDate),
      source_type: m.sourceType,
    }),
    v3: (m) => ({
      id: m.id,
      messageType: m.messageType ? { id: m.messageType.id, label: m.messageType.label } : null,
      linkedTo: linkedToV3(m),
      title: m.title,
      content: m.content,
      contentFields: m.contentFields,
      displayDate: v3DateTime(m.displayDate),
      sourceType: m.sourceType,
      attachments: m.attachments.map((a) => ({ id: a.id, documentId: a.documentId })),
      createdAt: v3DateTime(m.createdAt),
      updatedAt: v3DateTime(m.updatedAt),
    }),
  },
  create: { schema: createMessageSchema, run: createMessage },
};

export const messageTypeResource: ResourceDefinition<Models.TimelineMessageTypeModel> = {
  name: 'timeline/messagetype',
  entityType: 'messagetype',
  module: 'timeline',
  sql: messageTypeSql,
  defaultSort: [{ path: 'label', dir: 'asc' }],
  load: (db, ids) => db.timelineMessageType.findMany({ where: { id: { in: ids } } }),
  views: {
    v2: messageTypeV2,
    v3: (t) => ({
      id: t.id,
      label: t.label,
      blocked: t.blocked,
      createdAt: v3DateTime(t.createdAt),
      updatedAt: v3DateTime(t.updatedAt),
    }),
  },
  remove: false,
};

export const attachmentResource: ResourceDefinition<Models.TimelineAttachmentModel, CreateAttachmentInput> = {
  name: 'timeline/attachment',
  entityType: 'attachment',
  module: 'timeline',
  sql: attachmentSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: (db, ids) => db.timelineAttachment.findMany({ where: { id: { in: ids } } }),
  views: {
    v2: (a) => ({ ...attachmentV2(a), message_id: a.messageId, created_at: v2DateTime(a.createdAt) }),
    v3: (a) => ({ id: a.id, messageId: a.messageId, documentId: a.documentId, createdAt: v3DateTime(a.createdAt) }),
  },
  create: { schema: createAttachmentSchema, run: createAttachment },
};
