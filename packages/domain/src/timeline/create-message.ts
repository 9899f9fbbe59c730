import { parseDateTime } from '@bo/db';
import { linkColumns, linkReferences } from '../documents/linked-to.js';
import { userTarget } from '../admin/user.target.js';
import { columnsOf } from '../shared/entity/columns.js';
import { columnsOfWrite } from '../shared/entity/entity-write.js';
import type { EntityCreate } from '../shared/entity/index.js';
import { ValidationError } from '../shared/errors.js';
import { newEntityId } from '../shared/ids.js';
import type { CreateMessageInput } from './message.schema.js';
import { message } from './timeline.entity.js';

/** A message on the timeline of the entity it is linked to. */
export const createMessage: EntityCreate<CreateMessageInput> = {
  // the author must be a user of this environment (an author cannot be forged); the message
  // type, a declared reference, is checked with the entity's own
  references: (input) => [...linkReferences(input.linkedTo), { path: 'createdById', target: userTarget, id: input.createdById }],
  async run({ ctx, sql, now }, input) {
    let displayDate: Date | null = null;
    if (input.displayDate) {
      displayDate = parseDateTime(input.displayDate);
      if (!displayDate) throw new ValidationError([{ path: 'displayDate', message: 'not a valid date', code: 'invalid_date' }]);
    }
    const id = newEntityId('message');
    // the declared columns the input names (the others take their defaults), in one INSERT
    await sql.insert(message.table, {
      ...columnsOfWrite(message, input),
      ...columnsOf({ ...linkColumns(input.linkedTo), displayDate, createdById: input.createdById ?? ctx.principal.userId }),
      id,
      updated_at: now,
    });
    return id;
  },
};
