import { columnsOf } from '../shared/entity/columns.js';
import type { EntityUpdate } from '../shared/entity/index.js';
import type { UpdateExternalDocumentInput } from './document.schema.js';
import { linkColumns, linkReferences } from './linked-to.js';

export const updateExternalDocument: EntityUpdate<UpdateExternalDocumentInput> = {
  references: (input) => linkReferences(input.linkedTo),
  async run({ sql, now }, id, input) {
    await sql.update('external_document', id, {
      ...columnsOf({
        title: input.title,
        url: input.url,
        documentTypeId: input.documentTypeId,
        ...(input.linkedTo ? linkColumns(input.linkedTo) : {}),
      }),
      updated_at: now,
    });
  },
};
