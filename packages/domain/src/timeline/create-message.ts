import { parseDateTime, SCOPED_ENVIRONMENT } from '@bo/db';
import { assertLinkExists, linkColumns } from '../documents/linked-to.js';
import { ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import { assertReferencesExist } from '../shared/references.js';
import type { WriteContext } from '../shared/resources/definition.js';
import type { CreateMessageInput } from './message.schema.js';

export async function createMessage({ ctx, tx }: WriteContext, input: CreateMessageInput): Promise<string> {
  const environmentId = ctx.principal.environmentId;
  const links = linkColumns(input.linked_to);
  await assertLinkExists(tx, environmentId, links);
  await assertReferencesExist(tx, environmentId, [
    { path: 'messagetype_id', table: 'timeline_message_type', id: input.messagetype_id },
  ]);
  let displayDate: Date | null = null;
  if (input.display_date) {
    displayDate = parseDateTime(input.display_date);
    if (!displayDate) throw new ValidationError([{ path: 'display_date', message: 'not a valid date', code: 'invalid_date' }]);
  }
  const id = newEntityId('message');
  await tx.timelineMessage.create({
    data: {
      id,
      environmentId: SCOPED_ENVIRONMENT,
      messageTypeId: input.messagetype_id ?? null,
      title: input.title ?? null,
      content: input.content ?? null,
      contentFields: input.content_fields ?? [],
      displayDate,
      sourceType: input.source_type ?? null,
      createdById: input.created_by_id ?? ctx.principal.userId,
      ...links,
    },
  });
  return id;
}
