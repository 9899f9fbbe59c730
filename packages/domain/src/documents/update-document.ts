import { columnsOf } from '../shared/entity/columns.js';
import type { EntityUpdate } from '../shared/entity/index.js';
import type { UpdateDocumentInput } from './document.schema.js';
import { claimUpload, fileColumns, releaseUpload } from './document.write.js';
import { linkColumns, linkReferences } from './linked-to.js';
import { assertNotRendered } from './rendered-document.js';

/** Changes a document; a new finished upload replaces its file. */
export const updateDocument: EntityUpdate<UpdateDocumentInput> = {
  references: (input) => linkReferences(input.linkedTo),
  async run({ sql, now }, id, input) {
    // the document's upload, read once for the rendered check and the release of its file
    const current = input.uploadQueueId !== undefined || input.linkedTo !== undefined ? await assertNotRendered(sql, id) : null;
    let file = {};
    if (input.uploadQueueId) {
      const upload = await claimUpload(sql, input.uploadQueueId, now);
      if (current !== null) await releaseUpload(sql, current, now);
      file = fileColumns(upload);
    }
    await sql.update('document', id, {
      ...columnsOf({
        title: input.title,
        documentTypeId: input.documentTypeId,
        ...(input.linkedTo ? linkColumns(input.linkedTo) : {}),
      }),
      ...file,
      updated_at: now,
    });
  },
};
