import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EntityCreate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import type { CreateQuoteInput } from './quote.schema.js';
import { nextQuoteNumber, quoteReferences, statusByKey, writeServiceGroups } from './quote.write.js';

/** A draft quote of a sale, with its service groups and the totals computed from them. */
export const createQuote: EntityCreate<CreateQuoteInput> = {
  references: quoteReferences,
  async run(w, input) {
    const { tx, now } = w;
    const id = newEntityId('quote');
    const draft = await statusByKey(tx, 'draft');
    await tx.quote.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        saleId: input.saleId,
        quoteTemplateId: input.quoteTemplateId ?? null,
        quoteStatusId: draft.id,
        quoteNumber: await nextQuoteNumber(w),
        quoteDate: input.quoteDate ?? new Date(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`),
        quoteSubject: input.quoteSubject ?? null,
        customerReference: input.customerReference ?? null,
        json: input.json ?? null,
        validDays: input.validDays ?? null,
        sendType: input.sendType ?? null,
        isBlocked: input.isBlocked ?? false,
        createdAt: now,
        updatedAt: now,
      },
    });
    await writeServiceGroups(w, id, input.saleId, input.serviceGroups ?? []);
    return id;
  },
};
