import { SCOPED_ENVIRONMENT } from '@bo/db';
import { newEntityId } from '../shared/ids.js';
import type { WriteContext } from '../shared/resources/definition.js';
import type { CreateDocumentInput } from './document.schema.js';
import { assertDocumentType, claimUpload } from './document.write.js';
import { assertLinkExists, linkColumns } from './linked-to.js';

/** POST documents/document: a finished upload becomes a document linked to one entity. */
export async function createDocument({ ctx, tx, now }: WriteContext, input: CreateDocumentInput): Promise<string> {
  const environmentId = ctx.principal.environmentId;
  const links = linkColumns(input.linked_to);
  await assertLinkExists(tx, environmentId, links);
  await assertDocumentType(tx, environmentId, input.document_type_id);
  const upload = await claimUpload(tx, environmentId, input.upload_queue_id, now);
  const id = newEntityId('document');
  await tx.document.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      title: input.title,
      documentTypeId: input.document_type_id ?? null,
      uploadId: upload.id,
      storageKey: upload.storageKey,
      fileName: upload.fileName,
      fileSize: upload.fileSize,
      contentType: upload.contentType ?? 'application/octet-stream',
      createdById: ctx.principal.userId,
      ...links,
    },
  });
  return id;
}
