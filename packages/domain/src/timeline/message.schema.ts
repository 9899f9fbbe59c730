import { z } from 'zod';
import { linkedToInput } from '../documents/linked-to.js';
import { writeSchemasOf } from '../shared/entity/entity-write.js';
import { message } from './timeline.entity.js';

/** A new timeline message: the message's declared fields (see timeline.entity.ts) and what it is linked to. */
export const createMessageInput = writeSchemasOf(message).create.extend({ linkedTo: linkedToInput }).strict();
export type CreateMessageInput = z.infer<typeof createMessageInput>;

export const createAttachmentInput = z.strictObject({
  messageId: z.string().min(1),
  documentId: z.string().min(1),
});
export type CreateAttachmentInput = z.infer<typeof createAttachmentInput>;
