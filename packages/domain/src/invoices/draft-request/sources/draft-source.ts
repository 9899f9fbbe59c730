import type { TenantReader } from '@bo/db';
import type { StoredLineInput } from '../../invoice/invoice.write.js';

/** What a source drafts for: one project, in the transaction that holds its row lock. */
export interface DraftContext {
  /** the transaction's tenant reader: a source reads and claims through it */
  sql: TenantReader;
  projectId: string;
  /** the date the invoice is drafted for: what has come due by then is billed */
  invoiceDate: Date;
  /** the draft invoice the lines go on (a source may mark its items with it) */
  invoiceId: string;
}

/**
 * One kind of billable item (fixed prices, installments, subscription cycles, costs, hours).
 * `collect` answers the lines for what is billable and not yet billed, and claims those
 * items for the invoice in the same transaction. Items are claimed either by a line's
 * (sourceType, sourceId), which a unique index keeps to one line per environment, or by
 * marking the item itself (an installment's or an hour's invoice_id) in an UPDATE … WHERE
 * invoice_id IS NULL. Either way, two drafts never bill one item twice.
 */
export interface DraftSource {
  name: string;
  collect(c: DraftContext): Promise<StoredLineInput[]>;
}

/** A date as `YYYY-MM-DD`. */
export const day = (d: Date): string => d.toISOString().slice(0, 10);
