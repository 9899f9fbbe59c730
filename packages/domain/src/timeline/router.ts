import { entityCreate, entityDelete, entityQueries } from '../shared/entity/index.js';
import { router } from '../trpc.js';
import { createAttachment } from './create-attachment.js';
import { createMessage } from './create-message.js';
import { createAttachmentInput, createMessageInput } from './message.schema.js';
import { attachment, message, messageType } from './timeline.entity.js';

export const timelineRouter = router({
  message: router({
    ...entityQueries(message),
    create: entityCreate(message, createMessageInput, createMessage),
    delete: entityDelete(message),
  }),
  messagetype: router(entityQueries(messageType)),
  attachment: router({
    ...entityQueries(attachment),
    create: entityCreate(attachment, createAttachmentInput, createAttachment),
    delete: entityDelete(attachment),
  }),
});
