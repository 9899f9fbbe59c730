import type { SqlModel } from '@bo/db';
import { linkedToSql } from './linked-to.js';

export const documentTypeSql: SqlModel = {
  table: 'document_type',
  fields: {
    id: { column: 'id', type: 'id' },
    label: { column: 'label', type: 'string' },
    is_blocked: { column: 'is_blocked', type: 'boolean' },
    created_at: { column: 'created_at', type: 'datetime' },
    updated_at: { column: 'updated_at', type: 'datetime' },
  },
};

const common = {
  id: { column: 'id', type: 'id' },
  title: { column: 'title', type: 'string' },
  created_at: { column: 'created_at', type: 'datetime' },
  updated_at: { column: 'updated_at', type: 'datetime' },
} as const;

export const documentSql: SqlModel = {
  table: 'document',
  fields: {
    ...common,
    file_name: { column: 'file_name', type: 'string' },
    content_type: { column: 'content_type', type: 'string' },
  },
  relations: {
    document_type: { model: () => documentTypeSql, kind: 'one', local: 'document_type_id', remote: 'id' },
    linked_to: { model: () => linkedToSql('document'), kind: 'one', local: 'id', remote: 'id' },
  },
};

export const externalDocumentSql: SqlModel = {
  table: 'external_document',
  fields: { ...common, url: { column: 'url', type: 'string' } },
  relations: {
    document_type: { model: () => documentTypeSql, kind: 'one', local: 'document_type_id', remote: 'id' },
    linked_to: { model: () => linkedToSql('external_document'), kind: 'one', local: 'id', remote: 'id' },
  },
};
