import type { SqlWriteContext } from '../../shared/entity/index.js';

/**
 * The next invoice number of the environment: its counter row is incremented in the
 * caller's transaction, so the row stays locked until that transaction ends. A send
 * that rolls back gives its number back with it: numbers are gapless and sequential.
 */
export async function nextInvoiceNumber(w: Pick<SqlWriteContext, 'sql'>): Promise<{ sequence: number; number: string }> {
  const [row] = await w.sql.read<{ n: number }>(
    `INSERT INTO invoice_number_counter (environment_id, last_number) VALUES ($1, 1)
     ON CONFLICT (environment_id) DO UPDATE SET last_number = invoice_number_counter.last_number + 1
     RETURNING last_number AS n`,
  );
  if (!row) throw new Error('the invoice number counter answered no row');
  return { sequence: row.n, number: String(row.n) };
}
