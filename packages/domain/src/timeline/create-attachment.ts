import { document } from '../documents/document.entity.js';
import type { EntityCreate } from '../shared/entity/index.js';
import { ConflictError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateAttachmentInput } from './message.schema.js';

/** Attaches an existing document to a message, once. */
export const createAttachment: EntityCreate<CreateAttachmentInput> = {
  references: (input) => [{ path: 'documentId', target: document, id: input.documentId }],
  async run({ sql, now }, input) {
    const [existing] = await sql.read<{ id: string }>(
      'SELECT id FROM timeline_attachment WHERE environment_id = $1 AND message_id = $2 AND document_id = $3',
      [input.messageId, input.documentId],
    );
    if (existing) throw new ConflictError(`document ${input.documentId} is already attached to message ${input.messageId}`);
    const id = newEntityId('attachment');
    await sql.insert('timeline_attachment', {
      id,
      message_id: input.messageId,
      document_id: input.documentId,
      updated_at: now,
    });
    return id;
  },
};
