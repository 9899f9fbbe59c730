import { type EntityCreate, type EntityUpdate, recordChange, type SqlWriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { cents, centsText } from '../invoice/invoice-totals.js';
import { invoice } from '../invoice/invoice.entity.js';
import type { RegisterPaymentInput, UpdatePaymentInput } from './payment.schema.js';

/** The invoice a payment is on, locked and read in one statement: it must have been sent and not credited. */
async function payableInvoice(w: SqlWriteContext, invoiceId: string) {
  const [row] = await w.sql.read<{ id: string; status: string; kind: string; totalIncl: string }>(
    `SELECT id, status, kind, total_incl::text AS "totalIncl" FROM invoice WHERE environment_id = $1 AND id = $2 FOR UPDATE`,
    [invoiceId],
  );
  if (!row) {
    throw new ValidationError([
      { path: 'invoiceId', message: `no such record: ${invoiceId} (an invoice of this environment)`, code: 'not_found' },
    ]);
  }
  if (row.status === 'draft') {
    throw new BusinessRuleError(`invoice ${invoiceId} is a draft: a payment is registered on a sent invoice only`);
  }
  if (row.kind === 'credit' || row.status === 'credited') {
    throw new BusinessRuleError(
      `invoice ${invoiceId} is ${row.kind === 'credit' ? 'a credit invoice' : 'credited'}: it takes no payments`,
    );
  }
  return row;
}

/**
 * Sets the invoice's paid amount from its payments and its status from that: paid
 * when nothing is open, partially paid when something was paid, sent otherwise.
 * A payment above the open amount is refused unless marked as an overpayment.
 */
async function settle(
  w: SqlWriteContext,
  invoiceId: string,
  totalIncl: string,
  payment: { amount: bigint; marked: boolean; excludeId?: string },
) {
  // the other payments' sum, exact (numeric)
  const [others] = await w.sql.read<{ paid: string }>(
    `SELECT COALESCE(sum(amount), 0)::text AS paid FROM payment
      WHERE environment_id = $1 AND invoice_id = $2 AND ($3::text IS NULL OR id <> $3)`,
    [invoiceId, payment.excludeId ?? null],
  );
  const before = cents(others?.paid ?? '0');
  const open = cents(totalIncl) - before;
  if (payment.amount > open && !payment.marked) {
    throw new ValidationError([
      {
        path: 'amount',
        message: `the open amount is ${centsText(open > 0n ? open : 0n)}: a larger payment is refused unless marked as an overpayment (isOverpayment)`,
        code: 'overpayment',
      },
    ]);
  }
  const paid = before + payment.amount;
  const status = paid >= cents(totalIncl) ? 'paid' : paid > 0n ? 'partially_paid' : 'sent';
  await w.sql.update('invoice', invoiceId, { total_paid: centsText(paid), status, updated_at: w.now });
}

const isoDay = (d: Date): string => d.toISOString().slice(0, 10);

export const registerPayment: EntityCreate<RegisterPaymentInput> = {
  async run(w, input) {
    const inv = await payableInvoice(w, input.invoiceId);
    const amount = cents(input.amount);
    await settle(w, inv.id, inv.totalIncl, { amount, marked: input.isOverpayment });
    const id = newEntityId('payment');
    await w.sql.insert('payment', {
      id,
      invoice_id: inv.id,
      date: isoDay(input.date),
      amount: centsText(amount),
      is_overpayment: input.isOverpayment,
      description: input.description ?? null,
      updated_at: w.now,
    });
    await recordChange(w, invoice, inv.id, 'updated', false);
    return id;
  },
};

export const updatePayment: EntityUpdate<UpdatePaymentInput> = {
  async run(w, id, input) {
    const [current] = await w.sql.read<{ invoiceId: string; amount: string; isOverpayment: boolean }>(
      `SELECT invoice_id AS "invoiceId", amount::text AS amount, is_overpayment AS "isOverpayment"
         FROM payment WHERE environment_id = $1 AND id = $2`,
      [id],
    );
    if (!current) throw new NotFoundError('payment', id);
    const inv = await payableInvoice(w, current.invoiceId);
    const amount = input.amount === undefined ? cents(current.amount) : cents(input.amount);
    const marked = input.isOverpayment ?? current.isOverpayment;
    await settle(w, inv.id, inv.totalIncl, { amount, marked, excludeId: id });
    // the date and description stay as they are when not named
    await w.sql.update('payment', id, {
      date: input.date ? isoDay(input.date) : undefined,
      amount: centsText(amount),
      is_overpayment: marked,
      description: input.description,
      updated_at: w.now,
    });
    await recordChange(w, invoice, inv.id, 'updated', false);
  },
};
