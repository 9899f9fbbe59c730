import type { SqlModel } from '@bo/db';
import { linkedToSql } from '../documents/linked-to.js';

export const messageTypeSql: SqlModel = {
  table: 'timeline_message_type',
  fields: {
    id: { column: 'id', type: 'id' },
    label: { column: 'label', type: 'string' },
    blocked: { column: 'blocked', type: 'boolean' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

export const attachmentSql: SqlModel = {
  table: 'timeline_attachment',
  fields: {
    id: { column: 'id', type: 'id' },
    message_id: { column: 'message_id', type: 'id' },
    document_id: { column: 'document_id', type: 'id' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

export const messageSql: SqlModel = {
  table: 'timeline_message',
  fields: {
    id: { column: 'id', type: 'id' },
    title: { column: 'title', type: 'string' },
    content: { column: 'content', type: 'string' },
    source_type: { column: 'source_type', type: 'string' },
    display_date: { column: 'display_date', type: 'datetime' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
  relations: {
    message_type: { model: () => messageTypeSql, kind: 'one', local: 'message_type_id', remote: 'id' },
    linked_to: { model: () => linkedToSql('timeline_message'), kind: 'one', local: 'id', remote: 'id' },
    attachments: { model: () => attachmentSql, kind: 'many', local: 'id', remote: 'message_id' },
  },
};
