import type { EntityUpdate } from '../shared/entity/index.js';
import type { UpdateExternalDocumentInput } from './document.schema.js';
import { linkColumns, linkReferences } from './linked-to.js';

export const updateExternalDocument: EntityUpdate<UpdateExternalDocumentInput> = {
  references: (input) => linkReferences(input.linkedTo),
  async run({ tx, now }, id, input) {
    const links = input.linkedTo ? linkColumns(input.linkedTo) : undefined;
    await tx.externalDocument.update({
      where: { id },
      data: { title: input.title, url: input.url, documentTypeId: input.documentTypeId, ...links, updatedAt: now },
    });
  },
};
