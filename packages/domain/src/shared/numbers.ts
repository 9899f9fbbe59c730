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
