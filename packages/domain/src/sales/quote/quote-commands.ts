import { inSqlWrite, recordChange, type SqlWriteContext } from '../../shared/entity/index.js';
import { NotFoundError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import type { UserContext } from '../../trpc.js';
import type { QuoteFlowStep } from '../lookups/lookups.entity.js';
import { quote } from './quote.entity.js';
import type { QuoteEmailInput } from './quote.schema.js';
import { moveQuote, quoteState } from './quote.write.js';

/**
 * Locks the quote (the lock its edits, its deletion and its conversion take), then reads its
 * state and the status it is to move to: the state as the quote's last writer left it.
 */
async function lockQuote(w: SqlWriteContext, id: string, to: QuoteFlowStep) {
  if (!(await w.sql.lockForUpdate('quote', id))) throw new NotFoundError('quote', id);
  const state = await quoteState(w.sql, id, { key: to });
  if (!state.target) throw new Error(`the environment has no quote status ${to}`);
  return { from: state.statusKey, to: state.target };
}

/**
 * Sends a quote (v2 PUT sales/quoteemail/{id}): the send is recorded and a draft
 * becomes sent. No mail leaves the service.
 */
export async function sendQuote(ctx: UserContext, id: string, input: QuoteEmailInput): Promise<{ id: string }> {
  return inSqlWrite(ctx, async (w) => {
    const { from, to } = await lockQuote(w, id, 'sent');
    await moveQuote(w, id, from, to, 'quoteId');
    await w.sql.insert('quote_email', {
      id: newEntityId('quoteemail'),
      quote_id: id,
      subject: input.subject,
      body: input.body ?? null,
      // jsonb columns: the driver would send an array as a PostgreSQL array
      to: JSON.stringify(input.to),
      cc: JSON.stringify(input.cc ?? []),
      bcc: JSON.stringify(input.bcc ?? []),
      sent_at: w.now,
      created_at: w.now,
      updated_at: w.now,
    });
    await w.sql.update('quote', id, { sent_at: w.now, updated_at: w.now });
    await recordChange(w, quote, id, 'updated', false);
    return { id };
  });
}

/** The customer accepted a sent quote. */
export async function acceptQuote(ctx: UserContext, id: string): Promise<{ id: string }> {
  return inSqlWrite(ctx, async (w) => {
    const { from, to } = await lockQuote(w, id, 'accepted');
    await moveQuote(w, id, from, to, 'id');
    await recordChange(w, quote, id, 'updated', false);
    return { id };
  });
}
