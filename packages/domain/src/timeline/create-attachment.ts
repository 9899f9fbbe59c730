import { SCOPED_ENVIRONMENT } from '@bo/db';
import { document } from '../documents/document.entity.js';
import type { EntityCreate } from '../shared/entity/index.js';
import { ConflictError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateAttachmentInput } from './message.schema.js';

/** Attaches an existing document to a message, once. */
export const createAttachment: EntityCreate<CreateAttachmentInput> = {
  references: (input) => [{ path: 'documentId', target: document, id: input.documentId }],
  async run({ tx }, input) {
    const existing = await tx.timelineAttachment.findFirst({
      where: { messageId: input.messageId, documentId: input.documentId },
    });
    if (existing) throw new ConflictError(`document ${input.documentId} is already attached to message ${input.messageId}`);
    const id = newEntityId('attachment');
    await tx.timelineAttachment.create({
      data: { id, environmentId: SCOPED_ENVIRONMENT, messageId: input.messageId, documentId: input.documentId },
    });
    return id;
  },
};
