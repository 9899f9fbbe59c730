import { columnsOf } from '../shared/entity/columns.js';
import type { EntityCreate } from '../shared/entity/index.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateDocumentInput } from './document.schema.js';
import { claimUpload, fileColumns } from './document.write.js';
import { linkColumns, linkReferences } from './linked-to.js';

/** A finished upload becomes a document linked to one entity. */
export const createDocument: EntityCreate<CreateDocumentInput> = {
  references: (input) => linkReferences(input.linkedTo),
  async run({ ctx, sql, now }, input) {
    const upload = await claimUpload(sql, input.uploadQueueId, now);
    const id = newEntityId('document');
    await sql.insert('document', {
      ...fileColumns(upload),
      ...columnsOf({ ...linkColumns(input.linkedTo), documentTypeId: input.documentTypeId ?? null }),
      id,
      title: input.title,
      created_by_id: ctx.principal.userId,
      updated_at: now,
    });
    return id;
  },
};
