import type { EntityCreate } from '../../shared/entity/index.js';
import { newEntityId } from '../../shared/ids.js';
import { dateText } from '../sql-writes.js';
import type { CreateQuoteInput } from './quote.schema.js';
import {
  insertQuoteContent,
  lockQuoteNumbers,
  nextQuoteNumberSql,
  quoteContent,
  quoteReferences,
  totalsColumns,
} from './quote.write.js';

/**
 * A draft quote of a sale, with its service groups and the totals computed from them. Through the
 * transaction's reader in a transaction of our own: the number's lock, the quote (its number and
 * draft status made by PostgreSQL), its groups, lines and event are queued together; the sale
 * services and VAT classes its lines name are read first.
 */
export const createQuote: EntityCreate<CreateQuoteInput> = {
  references: quoteReferences,
  async run(w, input) {
    const { sql, now } = w;
    const id = newEntityId('quote');
    const content = await quoteContent(w, id, input.saleId, input.serviceGroups ?? []);
    const totals = totalsColumns(content);
    const prefix = await lockQuoteNumbers(w);
    await sql.queue(
      `INSERT INTO quote (environment_id, id, sale_id, quote_template_id, quote_status_id, quote_number, quote_date,
                          quote_subject, customer_reference, json, valid_days, send_type, is_blocked,
                          totals, total_excl, total_vat, total_incl, created_at, updated_at)
       VALUES ($1, $2, $3, $4, (SELECT s.id FROM quote_status s WHERE s.environment_id = $1 AND s.key = 'draft'),
               ${nextQuoteNumberSql(5)}, $6::date, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15, $16, $17, $17)`,
      [
        id,
        input.saleId,
        input.quoteTemplateId ?? null,
        prefix,
        dateText(input.quoteDate ?? now),
        input.quoteSubject ?? null,
        input.customerReference ?? null,
        input.json ?? null,
        input.validDays ?? null,
        input.sendType ?? null,
        input.isBlocked ?? false,
        totals.totals,
        totals.total_excl,
        totals.total_vat,
        totals.total_incl,
        now,
      ],
    );
    await insertQuoteContent(sql, content);
    return id;
  },
};
