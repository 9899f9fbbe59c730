import type { Attachment, Message, MessageType } from '@bo/domain/timeline/timeline.entity';
import { browserDownloadPath } from '../../browser-download.js';
import { LINK_NAMES, linkedToV2 } from '../documents/linked-to.js';
import { v2Names } from '../v2-names.js';
import { type AnyV2Resource, v2Resource } from '../v2-resource.js';

const names = v2Names({ ...LINK_NAMES, messagetype_id: 'messageTypeId' });

function messageTypeV2(t: Pick<MessageType, 'id' | 'label' | 'blocked' | 'logAction'>) {
  return { id: t.id, label: t.label, blocked: t.blocked, log_action: t.logAction };
}

function attachmentV2(a: { id: string; documentId: string }) {
  return {
    id: a.id,
    attachment_type: { id: 'document', label: 'Document' },
    title: null,
    document_id: a.documentId,
    download_link: browserDownloadPath('document', a.documentId),
  };
}

/** timeline/message: reference GetMessage plus the message's source (2026-06); messages are not changed once written. */
export const messageV2 = v2Resource<Message>({
  path: 'timeline/message',
  procedures: (c) => c.timeline.message,
  names,
  methods: { update: false },
  read: ({ attachments, messageType, linkedTo, createdById, ...own }) => ({
    attachments: attachments.map(attachmentV2),
    message_type: messageType ? messageTypeV2(messageType) : null,
    linked_to: linkedToV2(linkedTo),
    created_by: createdById ? { id: createdById, type: 'user', label: null, image: null } : null,
    // the message's own fields by convention (id, title, content, content fields, dates, source)
    ...(names.output(own) as Record<string, unknown>),
  }),
});

export const messageTypeV2Resource = v2Resource<MessageType>({
  path: 'timeline/messagetype',
  procedures: (c) => c.timeline.messagetype,
  names,
  methods: { create: false, update: false, delete: false },
  read: messageTypeV2,
});

export const attachmentV2Resource = v2Resource<Attachment>({
  path: 'timeline/attachment',
  procedures: (c) => c.timeline.attachment,
  names,
  methods: { update: false },
  read: (a) => ({ ...attachmentV2(a), message_id: a.message?.id ?? null, created_at: names.output(a.createdAt) }),
});

export const timelineV2Resources: AnyV2Resource[] = [messageV2, messageTypeV2Resource, attachmentV2Resource];
