import { SCOPED_ENVIRONMENT } from '@bo/db';
import { ConflictError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import { assertReferencesExist } from '../shared/references.js';
import type { WriteContext } from '../shared/resources/definition.js';
import type { CreateAttachmentInput } from './message.schema.js';

/** POST timeline/attachment: attaches an existing document to a message, once. */
export async function createAttachment({ ctx, tx }: WriteContext, input: CreateAttachmentInput): Promise<string> {
  await assertReferencesExist(tx, ctx.principal.environmentId, [
    { path: 'message_id', table: 'timeline_message', id: input.message_id },
    { path: 'document_id', table: 'document', id: input.document_id },
  ]);
  const existing = await tx.timelineAttachment.findFirst({
    where: { messageId: input.message_id, documentId: input.document_id },
  });
  if (existing) throw new ConflictError(`document ${input.document_id} is already attached to message ${input.message_id}`);
  const id = newEntityId('attachment');
  await tx.timelineAttachment.create({
    data: { id, environmentId: SCOPED_ENVIRONMENT, messageId: input.message_id, documentId: input.document_id },
  });
  return id;
}
