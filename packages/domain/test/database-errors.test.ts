import { describe, expect, it } from 'vitest';
import { BadRequestError, BusinessRuleError, ConflictError, toDomainError, UnavailableError } from '../src/shared/errors.js';

// What a database error becomes, whether pg raised it (a transaction's reader, raw reads) or Prisma
// wrapped it (its driver adapter): a 4xx or 503 in our own words, never the database's message.
const fromPg = (code: string, message = `internal detail of ${code} on "organization"."is_active"`) =>
  Object.assign(new Error(message), { code, severity: 'ERROR' });
const fromPrisma = (code: string) =>
  Object.assign(new Error('Raw query failed'), {
    code: 'P2010',
    meta: { driverAdapterError: { cause: { originalCode: code, originalMessage: `internal detail of ${code}` } } },
  });

describe('database errors in our own terms', () => {
  const cases: [string, string, new (...args: never[]) => Error, RegExp][] = [
    ['a required value left empty (23502)', '23502', BadRequestError, /required value is missing/],
    ['a value a check constraint refuses (23514)', '23514', BadRequestError, /not allowed/],
    ['a duplicate key (23505)', '23505', ConflictError, /same unique value/],
    ['a missing or still-used reference (23503)', '23503', BusinessRuleError, /does not exist or is still in use/],
    ['a malformed or out-of-range value (22xxx)', '22003', BadRequestError, /out of range or malformed/],
    ['a statement stopped (57014)', '57014', UnavailableError, /took too long/],
    ['a collision (40001)', '40001', UnavailableError, /collided/],
  ];
  for (const [label, code, type, message] of cases) {
    it(`${label}: the same from pg and through Prisma, without the database's words`, () => {
      for (const err of [fromPg(code), fromPrisma(code)]) {
        const mapped = toDomainError(err);
        expect(mapped).toBeInstanceOf(type);
        expect(mapped?.message).toMatch(message);
        expect(mapped?.message).not.toContain('internal detail');
      }
    });
  }

  it('an error of ours (a syntax error in our SQL) is not the client’s: no domain error, a logged 500', () => {
    expect(toDomainError(fromPg('42601', 'syntax error at or near "FROM"'))).toBeNull();
  });
});
