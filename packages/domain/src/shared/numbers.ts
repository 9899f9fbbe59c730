import { parseDateTime } from '@bo/db';
import { z } from 'zod';

/** Prisma decimals (or null) as plain numbers for the wire. */
export function num(d: { toNumber(): number } | null | undefined): number | null {
  return d === null || d === undefined ? null : d.toNumber();
}

/** A calendar date in, `YYYY-MM-DD` (a time part, as v2 clients send it, is accepted and dropped). */
export const dateInput = z
  .string()
  .refine((s) => parseDateTime(s) !== null, { message: 'This value is not a valid date (YYYY-MM-DD).' })
  .transform((s) => new Date(`${(parseDateTime(s) as Date).toISOString().slice(0, 10)}T00:00:00.000Z`));

/** The largest value of an integer column (PostgreSQL `integer`). */
export const INT4_MAX = 2_147_483_647;

/**
 * A whole number given as a JSON number or as a string of digits (as v2 clients send
 * them), within [min, max]: out of range is a validation error in our words, decided
 * before the database (which would refuse it with its own message, or not at all).
 */
export function wholeNumberInput(min: number, max: number, message = 'This value is not a whole number.') {
  return z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+$/, message),
    ])
    .transform((v) => Number(v))
    .pipe(
      z
        .number()
        .int(message)
        .min(min, `This value must be between ${min} and ${max}.`)
        .max(max, `This value must be between ${min} and ${max}.`),
    );
}

export const money = z.number().finite().min(0).max(1e10);
export const signedAmount = z.number().finite().min(-1e10).max(1e10);

/**
 * A row copied into a new create: Prisma decimals become numbers, because the
 * tenant scope walks create payloads as plain objects and would take a decimal apart.
 */
export function withPlainDecimals<T extends Record<string, unknown>>(row: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] =
      v && typeof v === 'object' && 'toNumber' in v && typeof v.toNumber === 'function' ? (v.toNumber as () => number)() : v;
  }
  return out as T;
}
