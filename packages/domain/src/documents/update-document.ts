import type { WriteContext } from '../shared/resources/definition.js';
import type { UpdateDocumentInput } from './document.schema.js';
import { assertDocumentType, claimUpload, releaseUpload } from './document.write.js';
import { assertLinkExists, linkColumns } from './linked-to.js';

export async function updateDocument({ ctx, tx, now }: WriteContext, id: string, input: UpdateDocumentInput): Promise<void> {
  const environmentId = ctx.principal.environmentId;
  const links = input.linked_to ? linkColumns(input.linked_to) : undefined;
  if (links) await assertLinkExists(tx, environmentId, links);
  await assertDocumentType(tx, environmentId, input.document_type_id);
  let file = {};
  if (input.upload_queue_id) {
    const current = await tx.document.findFirst({ where: { id } });
    const upload = await claimUpload(tx, environmentId, input.upload_queue_id, now);
    if (current) await releaseUpload(tx, current.uploadId, now);
    file = {
      uploadId: upload.id,
      storageKey: upload.storageKey,
      fileName: upload.fileName,
      fileSize: upload.fileSize,
      contentType: upload.contentType ?? 'application/octet-stream',
    };
  }
  await tx.document.update({
    where: { id },
    data: { title: input.title, documentTypeId: input.document_type_id, ...links, ...file, updatedAt: now },
  });
}
