import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate } from '../shared/entity/index.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateExternalDocumentInput } from './document.schema.js';
import { linkColumns, linkReferences } from './linked-to.js';

/** An invalid entity reference (linkedTo, documentTypeId) answers 400, as the 2025-10 change says. */
export const createExternalDocument: EntityCreate<CreateExternalDocumentInput> = {
  references: (input) => linkReferences(input.linkedTo),
  async run({ tx }, input) {
    const id = newEntityId('externaldocument');
    await tx.externalDocument.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        title: input.title,
        url: input.url,
        documentTypeId: input.documentTypeId ?? null,
        ...linkColumns(input.linkedTo),
      },
    });
    return id;
  },
};
