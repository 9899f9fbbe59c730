/**
 * Exact decimal amounts as scaled integers (bigint): no binary floating point. A
 * value of scale 4 is its number of ten-thousandths; cents are scale 2.
 */

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** A decimal number or its string ("12.5", "-0.0001", 3) as an integer of the given scale; more digits than the scale are refused. */
export function parseScaled(value: string | number, scale: number): bigint {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const m = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) throw new RangeError(`not a decimal number: ${text}`);
  const [, sign, whole, fraction = ''] = m;
  if (fraction.replace(/0+$/, '').length > scale) throw new RangeError(`${text} has more than ${scale} decimals`);
  const digits = BigInt(`${whole}${fraction.padEnd(scale, '0').slice(0, scale)}`);
  return sign === '-' ? -digits : digits;
}

/** The shortest decimal text of a JSON number (what the client wrote), never in exponent form. */
function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(20).replace(/\.?0+$/, '');
}

/** Divides by 10^digits, rounding half up (halves away from zero, as money is rounded). */
export function roundHalfUp(value: bigint, digits: number): bigint {
  if (digits <= 0) return value * pow10(-digits);
  const d = pow10(digits);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const q = abs / d;
  const r = abs % d;
  const rounded = r * 2n >= d ? q + 1n : q;
  return negative ? -rounded : rounded;
}

/** An integer of the given scale as decimal text: 123450n, 2 → "1234.50". */
export function formatScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale ? `.${digits.slice(digits.length - scale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
