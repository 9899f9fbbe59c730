import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatScaled, parseScaled, roundHalfUp } from '@bo/domain/sales/quote/decimal';
import {
  choiceViolations,
  computeQuoteTotals,
  lineCents,
  type TotalsGroup,
  type TotalsLine,
} from '@bo/domain/sales/quote/quote-totals';

/** The one totals function of quotes (sales/quote 2024-04, 2024-11, 2024-12), tested on its own. */

const line = (over: Partial<TotalsLine> = {}): TotalsLine => ({
  quantity: 1,
  price: 100,
  vatClassId: 'vat:high',
  vatPercentage: 21,
  chosen: false,
  ...over,
});

describe('exact decimals (no binary floating point)', () => {
  it('parses and formats without floats: 0.1 + 0.2 is 0.30', () => {
    expect(formatScaled(parseScaled(0.1, 2) + parseScaled(0.2, 2), 2)).toBe('0.30');
    expect(parseScaled('12.5', 4)).toBe(125000n);
    expect(parseScaled(-0.0001, 4)).toBe(-1n);
    expect(() => parseScaled(0.00001, 4)).toThrow(/more than 4 decimals/);
  });

  it('rounds half up (halves away from zero)', () => {
    expect(roundHalfUp(125n, 1)).toBe(13n);
    expect(roundHalfUp(124n, 1)).toBe(12n);
    expect(roundHalfUp(-125n, 1)).toBe(-13n);
  });
});

describe('amounts are rounded half up to cents at the line level', () => {
  it('1.005 × 1 is 1.01 (a float would give 1.00)', () => {
    expect(formatScaled(lineCents({ quantity: 1, price: 1.005 }), 2)).toBe('1.01');
    // 3 × 0.3335 = 1.0005 → 1.00; 0.5 × 0.0101 = 0.00505 → 0.01
    expect(formatScaled(lineCents({ quantity: 3, price: 0.3335 }), 2)).toBe('1.00');
    expect(formatScaled(lineCents({ quantity: 0.5, price: 0.0101 }), 2)).toBe('0.01');
  });

  it('the total is the sum of the rounded lines, not the rounded sum', () => {
    const t = computeQuoteTotals([
      {
        type: 'all_included',
        lines: [line({ quantity: 1, price: 0.005, vatClassId: null }), line({ quantity: 1, price: 0.005, vatClassId: null })],
      },
    ]);
    expect(t.grandTotals.excl).toBe('0.02');
  });

  it('agrees with exact integer arithmetic for any line (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 10_000_000 }), (q, p) => {
        // quantities and prices of four decimals, as ten-thousandths
        const exact = BigInt(q) * BigInt(p); // scale 8
        const cents = (exact + 500_000n) / 1_000_000n;
        expect(lineCents({ quantity: formatScaled(BigInt(q), 4), price: formatScaled(BigInt(p), 4) })).toBe(cents);
      }),
    );
  });
});

describe('optional groups count chosen services only', () => {
  it('all_included counts every line; multiple_optional and single_optional only the chosen ones', () => {
    const t = computeQuoteTotals([
      { type: 'all_included', lines: [line(), line({ chosen: true })] },
      { type: 'multiple_optional', lines: [line({ chosen: true }), line(), line({ chosen: true })] },
      { type: 'single_optional', lines: [line(), line()] },
      { type: 'single_optional', lines: [line(), line({ price: 50, chosen: true })] },
    ]);
    expect(t.groups.map((g) => g.excl)).toEqual(['200.00', '200.00', '0.00', '50.00']);
    expect(t.groups[1]?.counted).toEqual([true, false, true]);
    expect(t.grandTotals).toMatchObject({ excl: '450.00', vat: '94.50', incl: '544.50' });
  });
});

describe('single_required needs exactly one chosen', () => {
  it('none or two chosen are violations naming the group; one is fine', () => {
    const groups: TotalsGroup[] = [
      { type: 'single_required', lines: [line(), line()] },
      { type: 'single_required', lines: [line({ chosen: true }), line({ chosen: true })] },
      { type: 'single_required', lines: [line({ chosen: true }), line()] },
      { type: 'single_optional', lines: [line({ chosen: true }), line({ chosen: true })] },
    ];
    expect(choiceViolations(groups).map((v) => [v.path, v.code])).toEqual([
      ['serviceGroups.0.services', 'single_required'],
      ['serviceGroups.1.services', 'single_required'],
      ['serviceGroups.3.services', 'single_optional'],
    ]);
    expect(computeQuoteTotals([groups[2] as TotalsGroup]).grandTotals.excl).toBe('100.00');
  });
});

describe('VAT per VAT class', () => {
  it('VAT is computed on the sum of each class, rounded half up to cents, and listed per class', () => {
    const t = computeQuoteTotals([
      {
        type: 'all_included',
        lines: [
          line({ price: 0.05, vatClassId: 'vat:high', vatPercentage: 21 }),
          line({ price: 0.05, vatClassId: 'vat:high', vatPercentage: 21 }),
          line({ price: 10, vatClassId: 'vat:low', vatPercentage: 9 }),
          line({ price: 7, vatClassId: null, vatPercentage: 21 }),
        ],
      },
    ]);
    // high: 0.10 × 21% = 0.021 → 0.02 (per line it would be 0.01 + 0.01); low: 0.90; none: 0
    expect(t.grandTotals.vatByClass).toEqual([
      { vatClassId: 'vat:high', percentage: '21.0000', base: '0.10', vat: '0.02' },
      { vatClassId: 'vat:low', percentage: '9.0000', base: '10.00', vat: '0.90' },
      { vatClassId: null, percentage: '0.0000', base: '7.00', vat: '0.00' },
    ]);
    expect(t.grandTotals).toMatchObject({ excl: '17.10', vat: '0.92', incl: '18.02' });
  });

  it('grand totals are the quote’s own: per class over all groups', () => {
    const t = computeQuoteTotals([
      { type: 'all_included', lines: [line({ price: 0.05 })] },
      { type: 'all_included', lines: [line({ price: 0.05 })] },
    ]);
    // each group: 0.05 × 21% = 0.0105 → 0.01; the quote: 0.10 × 21% = 0.021 → 0.02
    expect(t.groups.map((g) => g.vat)).toEqual(['0.01', '0.01']);
    expect(t.grandTotals.vat).toBe('0.02');
  });
});
