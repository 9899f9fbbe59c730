import type { InvoiceMethod } from './invoice-method.js';

export type BillableOutcome = { ok: true; value: boolean } | { ok: false; message: string; code: string };

/**
 * `billable` of an hour or cost type on a service follows the invoice method
 * (contract, 2026-04): a fixed fee bills everything (false refused, null → true);
 * on hours it must be said (null refused); an internal project bills nothing
 * (true refused, null → false). A subscription, like a fixed fee, bills a fixed
 * amount, so it follows the fixed-fee rule. Acquisition services are internal work.
 */
export function resolveBillable(method: InvoiceMethod, internal: boolean, given: boolean | null | undefined): BillableOutcome {
  if (internal) {
    if (given === true) {
      return { ok: false, code: 'billable_internal', message: 'On an internal (non-billable) project billable must be false.' };
    }
    return { ok: true, value: false };
  }
  if (method === 'time_and_expenses') {
    if (given === true || given === false) return { ok: true, value: given };
    return { ok: false, code: 'billable_required', message: 'With invoice method Hours billable must be true or false.' };
  }
  if (given === false) {
    return {
      ok: false,
      code: 'billable_fixed_fee',
      message: 'With a fixed fee or subscription every type is billable: billable must be true.',
    };
  }
  return { ok: true, value: true };
}
