import { columnsOf } from '../shared/entity/columns.js';
import type { EntityCreate } from '../shared/entity/index.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateExternalDocumentInput } from './document.schema.js';
import { linkColumns, linkReferences } from './linked-to.js';

/** An invalid entity reference (linkedTo, documentTypeId) answers 400, as the 2025-10 change says. */
export const createExternalDocument: EntityCreate<CreateExternalDocumentInput> = {
  references: (input) => linkReferences(input.linkedTo),
  async run({ sql, now }, input) {
    const id = newEntityId('externaldocument');
    await sql.insert('external_document', {
      ...columnsOf({ ...linkColumns(input.linkedTo), documentTypeId: input.documentTypeId ?? null }),
      id,
      title: input.title,
      url: input.url,
      updated_at: now,
    });
    return id;
  },
};
