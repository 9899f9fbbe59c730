import { formatScaled, parseScaled, roundHalfUp } from '../../sales/quote/decimal.js';

/**
 * The amounts of an invoice, computed by this one function from its lines:
 *
 * - a line's amount is quantity × price, rounded half up (away from zero) to cents;
 * - a line's VAT is its amount × its class's percentage / 100, rounded half up to cents;
 * - the VAT of a class is the sum of its lines' VAT, the invoice's VAT the sum of the classes';
 * - total excluding VAT = Σ line amounts; including = excluding + VAT.
 *
 * So the totals always equal the sums of the lines (rounding per line, stated, never on
 * the totals). Everything is exact (scaled integers), never a binary float.
 */

export interface AmountLine {
  /** decimal text or number, at most 4 decimals */
  quantity: string | number;
  price: string | number;
  /** the VAT class's percentage, at most 4 decimals; 0 without a class */
  vatPercentage: string | number;
}

export interface LineAmounts {
  amount: string;
  vat: string;
}

export interface InvoiceAmounts {
  lines: LineAmounts[];
  excl: string;
  vat: string;
  incl: string;
}

const SCALE = 4;

export function lineAmountCents(line: Pick<AmountLine, 'quantity' | 'price'>): bigint {
  // scale 4 × scale 4 = scale 8; cents are scale 2
  return roundHalfUp(parseScaled(line.quantity, SCALE) * parseScaled(line.price, SCALE), 2 * SCALE - 2);
}

export function lineVatCents(amountCents: bigint, percentage: string | number): bigint {
  // cents × percentage (scale 4) / 100 is scale 6 over cents
  return roundHalfUp(amountCents * parseScaled(percentage, SCALE), SCALE + 2);
}

export function computeInvoiceAmounts(lines: AmountLine[]): InvoiceAmounts {
  let excl = 0n;
  let vat = 0n;
  const out: LineAmounts[] = [];
  for (const line of lines) {
    const amount = lineAmountCents(line);
    const lineVat = lineVatCents(amount, line.vatPercentage);
    excl += amount;
    vat += lineVat;
    out.push({ amount: formatScaled(amount, 2), vat: formatScaled(lineVat, 2) });
  }
  return { lines: out, excl: formatScaled(excl, 2), vat: formatScaled(vat, 2), incl: formatScaled(excl + vat, 2) };
}

/** Cents of a decimal text of scale ≤ 2. */
export const cents = (value: string | number): bigint => parseScaled(value, 2);
export const centsText = (value: bigint): string => formatScaled(value, 2);
