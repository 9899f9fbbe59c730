import { SCOPED_ENVIRONMENT } from '@bo/db';
import { inWrite, recordChange } from '../../shared/entity/index.js';
import { NotFoundError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { UserContext } from '../../trpc.js';
import { quote } from './quote.entity.js';
import type { QuoteEmailInput } from './quote.schema.js';
import { moveQuote } from './quote.write.js';

async function lockQuote(w: Parameters<Parameters<typeof inWrite>[1]>[0], id: string) {
  if (!(await w.sql.lockForUpdate('quote', id))) throw new NotFoundError('quote', id);
}

/**
 * Sends a quote (v2 PUT sales/quoteemail/{id}): the send is recorded and a draft
 * becomes sent. No mail leaves the service.
 */
export async function sendQuote(ctx: UserContext, id: string, input: QuoteEmailInput): Promise<{ id: string }> {
  return inWrite(ctx, async (w) => {
    await lockQuote(w, id);
    await moveQuote(w, id, 'sent', 'quoteId');
    await w.tx.quoteEmail.create({
      data: {
        id: newEntityId('quoteemail'),
        environmentId: SCOPED_ENVIRONMENT,
        quoteId: id,
        subject: input.subject,
        body: input.body ?? null,
        to: input.to,
        cc: input.cc ?? [],
        bcc: input.bcc ?? [],
        sentAt: w.now,
        createdAt: w.now,
        updatedAt: w.now,
      },
    });
    await w.tx.quote.update({ where: { id }, data: { sentAt: w.now, updatedAt: w.now } });
    await recordChange(w, quote, id, 'updated');
    return { id };
  });
}

/** The customer accepted a sent quote. */
export async function acceptQuote(ctx: UserContext, id: string): Promise<{ id: string }> {
  return inWrite(ctx, async (w) => {
    await lockQuote(w, id);
    await moveQuote(w, id, 'accepted', 'id');
    await recordChange(w, quote, id, 'updated');
    return { id };
  });
}
