import type { EntityUpdate } from '../shared/entity/index.js';
import type { UpdateDocumentInput } from './document.schema.js';
import { claimUpload, releaseUpload } from './document.write.js';
import { linkColumns, linkReferences } from './linked-to.js';
import { assertNotRendered } from './rendered-document.js';

/** Changes a document; a new finished upload replaces its file. */
export const updateDocument: EntityUpdate<UpdateDocumentInput> = {
  references: (input) => linkReferences(input.linkedTo),
  async run(w, id, input) {
    if (input.uploadQueueId !== undefined || input.linkedTo !== undefined) await assertNotRendered(w, id);
    const links = input.linkedTo ? linkColumns(input.linkedTo) : undefined;
    let file = {};
    if (input.uploadQueueId) {
      const current = await w.tx.document.findFirst({ where: { id } });
      const upload = await claimUpload(w, input.uploadQueueId, w.now);
      if (current) await releaseUpload(w, current.uploadId, w.now);
      file = {
        uploadId: upload.id,
        storageKey: upload.storageKey,
        fileName: upload.fileName,
        fileSize: upload.fileSize,
        contentType: upload.contentType ?? 'application/octet-stream',
      };
    }
    await w.tx.document.update({
      where: { id },
      data: { title: input.title, documentTypeId: input.documentTypeId, ...links, ...file, updatedAt: w.now },
    });
  },
};
