import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { Models } from '@bo/db';
import { v2DateTime, v3DateTime } from '../shared/format.js';
import { newEntityId } from '../shared/ids.js';
import type { ResourceDefinition, WriteContext } from '../shared/resources/definition.js';
import {
  type CreateExternalDocumentInput,
  createExternalDocumentSchema,
  type UpdateExternalDocumentInput,
  updateExternalDocumentSchema,
} from './document.schema.js';
import { externalDocumentSql } from './document.sql.js';
import { assertDocumentType } from './document.write.js';
import { assertLinkExists, linkColumns, linkedToV2, linkedToV3 } from './linked-to.js';

type Row = Models.ExternalDocumentModel & { documentType: Models.DocumentTypeModel | null };

/** An invalid entity reference (linked_to, document_type_id) answers 400, as the 2025-10 change says. */
async function createExternalDocument({ ctx, tx }: WriteContext, input: CreateExternalDocumentInput): Promise<string> {
  const links = linkColumns(input.linked_to);
  await assertLinkExists(tx, ctx.principal.environmentId, links);
  await assertDocumentType(tx, ctx.principal.environmentId, input.document_type_id);
  const id = newEntityId('externaldocument');
  await tx.externalDocument.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      title: input.title,
      url: input.url,
      documentTypeId: input.document_type_id ?? null,
      ...links,
    },
  });
  return id;
}

async function updateExternalDocument({ ctx, tx, now }: WriteContext, id: string, input: UpdateExternalDocumentInput) {
  const links = input.linked_to ? linkColumns(input.linked_to) : undefined;
  if (links) await assertLinkExists(tx, ctx.principal.environmentId, links);
  await assertDocumentType(tx, ctx.principal.environmentId, input.document_type_id);
  await tx.externalDocument.update({
    where: { id },
    data: { title: input.title, url: input.url, documentTypeId: input.document_type_id, ...links, updatedAt: now },
  });
}

export const externalDocumentResource: ResourceDefinition<Row, CreateExternalDocumentInput, UpdateExternalDocumentInput> = {
  name: 'documents/externaldocument',
  entityType: 'externaldocument',
  module: 'documents',
  sql: externalDocumentSql,
  defaultSort: [{ path: 'created_at', dir: 'asc' }],
  load: (db, ids) => db.externalDocument.findMany({ where: { id: { in: ids } }, include: { documentType: true } }),
  views: {
    v2: (d) => ({
      id: d.id,
      title: d.title,
      url: d.url,
      document_type: d.documentType ? { id: d.documentType.id, label: d.documentType.label } : null,
      linked_to: linkedToV2(d),
      created_at: v2DateTime(d.createdAt),
      updated_at: v2DateTime(d.updatedAt),
    }),
    v3: (d) => ({
      id: d.id,
      title: d.title,
      url: d.url,
      documentType: d.documentType ? { id: d.documentType.id, label: d.documentType.label } : null,
      linkedTo: linkedToV3(d),
      createdAt: v3DateTime(d.createdAt),
      updatedAt: v3DateTime(d.updatedAt),
    }),
  },
  create: { schema: createExternalDocumentSchema, run: createExternalDocument },
  update: { schema: updateExternalDocumentSchema, run: updateExternalDocument },
};
