import type { EntityUpdate } from '../../shared/entity/index.js';
import { ValidationError } from '../../shared/errors.js';
import { optionalDateText } from '../sql-writes.js';
import type { UpdateQuoteInput } from './quote.schema.js';
import { assertDraft, moveQuote, quoteReferences, quoteState, writeServiceGroups } from './quote.write.js';

/** Changes a quote: its fields, its groups (a draft only) and its step in the flow. */
export const updateQuote: EntityUpdate<UpdateQuoteInput> = {
  references: quoteReferences,
  async run(w, id, input) {
    const { sql, now } = w;
    // read after the generic update's row lock: the status as the quote's last writer left it
    const current = await quoteState(sql, id, { id: input.quoteStatusId });
    if (input.serviceGroups !== undefined) {
      assertDraft(current.statusKey);
      await writeServiceGroups(w, id, current.saleId, input.serviceGroups);
    }
    await sql.update('quote', id, {
      quote_template_id: input.quoteTemplateId,
      quote_subject: input.quoteSubject,
      customer_reference: input.customerReference,
      json: input.json,
      quote_date: optionalDateText(input.quoteDate),
      valid_days: input.validDays,
      send_type: input.sendType,
      is_blocked: input.isBlocked,
      updated_at: now,
    });
    if (input.quoteStatusId !== undefined) {
      if (!current.target) {
        throw new ValidationError([
          { path: 'quoteStatusId', message: `no such record: ${input.quoteStatusId}`, code: 'not_found' },
        ]);
      }
      await moveQuote(w, id, current.statusKey, current.target);
    }
  },
};
