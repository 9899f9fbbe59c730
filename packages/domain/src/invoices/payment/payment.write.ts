import { SCOPED_ENVIRONMENT } from '@bo/db';
import { type EntityCreate, type EntityUpdate, recordChange, type WriteContext } from '../../shared/entity/index.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { newEntityId } from '../../shared/ids.js';
import { cents, centsText } from '../invoice/invoice-totals.js';
import { invoice } from '../invoice/invoice.entity.js';
import type { RegisterPaymentInput, UpdatePaymentInput } from './payment.schema.js';

/** The invoice a payment is on, locked: it must have been sent and not credited. */
async function payableInvoice(w: WriteContext, invoiceId: string) {
  if (!(await w.sql.lockForUpdate('invoice', invoiceId))) {
    throw new ValidationError([
      { path: 'invoiceId', message: `no such record: ${invoiceId} (an invoice of this environment)`, code: 'not_found' },
    ]);
  }
  const row = await w.tx.invoice.findFirstOrThrow({ where: { id: invoiceId } });
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
  w: WriteContext,
  invoiceId: string,
  totalIncl: string,
  payment: { amount: bigint; marked: boolean; excludeId?: string },
) {
  const others = await w.tx.payment.findMany({
    where: { invoiceId, ...(payment.excludeId ? { id: { not: payment.excludeId } } : {}) },
    select: { amount: true },
  });
  const before = others.reduce((sum, p) => sum + cents(p.amount.toString()), 0n);
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
  await w.tx.invoice.update({ where: { id: invoiceId }, data: { totalPaid: centsText(paid), status, updatedAt: w.now } });
}

export const registerPayment: EntityCreate<RegisterPaymentInput> = {
  async run(w, input) {
    const inv = await payableInvoice(w, input.invoiceId);
    const amount = cents(input.amount);
    await settle(w, inv.id, inv.totalIncl.toString(), { amount, marked: input.isOverpayment });
    const id = newEntityId('payment');
    await w.tx.payment.create({
      data: {
        id,
        environmentId: SCOPED_ENVIRONMENT,
        invoiceId: inv.id,
        date: input.date,
        amount: centsText(amount),
        isOverpayment: input.isOverpayment,
        description: input.description ?? null,
      },
    });
    await recordChange(w, invoice, inv.id, 'updated');
    return id;
  },
};

export const updatePayment: EntityUpdate<UpdatePaymentInput> = {
  async run(w, id, input) {
    const current = await w.tx.payment.findFirst({ where: { id } });
    if (!current) throw new NotFoundError('payment', id);
    const inv = await payableInvoice(w, current.invoiceId);
    const amount = input.amount === undefined ? cents(current.amount.toString()) : cents(input.amount);
    const marked = input.isOverpayment ?? current.isOverpayment;
    await settle(w, inv.id, inv.totalIncl.toString(), { amount, marked, excludeId: id });
    await w.tx.payment.update({
      where: { id },
      data: {
        ...(input.date ? { date: input.date } : {}),
        amount: centsText(amount),
        isOverpayment: marked,
        ...(input.description !== undefined ? { description: input.description } : {}),
        updatedAt: w.now,
      },
    });
    await recordChange(w, invoice, inv.id, 'updated');
  },
};
