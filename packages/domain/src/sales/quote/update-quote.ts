import type { EntityUpdate } from '../../shared/entity/index.js';
import { ValidationError } from '../../shared/errors.js';
import type { QuoteFlowStep } from '../lookups/lookups.entity.js';
import type { UpdateQuoteInput } from './quote.schema.js';
import { assertDraft, moveQuote, quoteReferences, writeServiceGroups } from './quote.write.js';

/** Changes a quote: its fields, its groups (a draft only) and its step in the flow. */
export const updateQuote: EntityUpdate<UpdateQuoteInput> = {
  references: quoteReferences,
  async run(w, id, input) {
    const { tx, now } = w;
    const current = await tx.quote.findFirstOrThrow({ where: { id } });
    if (input.serviceGroups !== undefined) {
      await assertDraft(w, id);
      await writeServiceGroups(w, id, current.saleId, input.serviceGroups);
    }
    await tx.quote.update({
      where: { id },
      data: {
        quoteTemplateId: input.quoteTemplateId,
        quoteSubject: input.quoteSubject,
        customerReference: input.customerReference,
        json: input.json,
        quoteDate: input.quoteDate,
        validDays: input.validDays,
        sendType: input.sendType,
        isBlocked: input.isBlocked,
        updatedAt: now,
      },
    });
    if (input.quoteStatusId !== undefined) {
      const status = await tx.quoteStatus.findFirst({ where: { id: input.quoteStatusId } });
      if (!status) {
        throw new ValidationError([
          { path: 'quoteStatusId', message: `no such record: ${input.quoteStatusId}`, code: 'not_found' },
        ]);
      }
      await moveQuote(w, id, status.key as QuoteFlowStep);
    }
  },
};
