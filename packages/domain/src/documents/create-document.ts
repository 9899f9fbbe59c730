import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate } from '../shared/entity/index.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateDocumentInput } from './document.schema.js';
import { claimUpload } from './document.write.js';
import { linkColumns, linkReferences } from './linked-to.js';

/** A finished upload becomes a document linked to one entity. */
export const createDocument: EntityCreate<CreateDocumentInput> = {
  references: (input) => linkReferences(input.linkedTo),
  async run(w, input) {
    const upload = await claimUpload(w, input.uploadQueueId, w.now);
    const id = newEntityId('document');
    await w.tx.document.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        title: input.title,
        documentTypeId: input.documentTypeId ?? null,
        uploadId: upload.id,
        storageKey: upload.storageKey,
        fileName: upload.fileName,
        fileSize: upload.fileSize,
        contentType: upload.contentType ?? 'application/octet-stream',
        createdById: w.ctx.principal.userId,
        ...linkColumns(input.linkedTo),
      },
    });
    return id;
  },
};
