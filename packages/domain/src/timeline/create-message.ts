import { parseDateTime, SCOPED_ENVIRONMENT } from '@bo/db';
import { linkColumns, linkReferences } from '../documents/linked-to.js';
import { userTarget } from '../admin/user.target.js';
import type { EntityCreate } from '../shared/entity/index.js';
import { ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateMessageInput } from './message.schema.js';
import { messageType } from './timeline.entity.js';

/** A message on the timeline of the entity it is linked to. */
export const createMessage: EntityCreate<CreateMessageInput> = {
  // the author and the message type must be this environment's: an author cannot be forged
  references: (input) => [
    ...linkReferences(input.linkedTo),
    { path: 'createdById', target: userTarget, id: input.createdById },
    { path: 'messageTypeId', target: messageType, id: input.messageTypeId },
  ],
  async run({ ctx, tx }, input) {
    let displayDate: Date | null = null;
    if (input.displayDate) {
      displayDate = parseDateTime(input.displayDate);
      if (!displayDate) throw new ValidationError([{ path: 'displayDate', message: 'not a valid date', code: 'invalid_date' }]);
    }
    const id = newEntityId('message');
    await tx.timelineMessage.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        messageTypeId: input.messageTypeId ?? null,
        title: input.title ?? null,
        content: input.content ?? null,
        contentFields: input.contentFields ?? [],
        displayDate,
        sourceType: input.sourceType ?? null,
        createdById: input.createdById ?? ctx.principal.userId,
        ...linkColumns(input.linkedTo),
      },
    });
    return id;
  },
};
