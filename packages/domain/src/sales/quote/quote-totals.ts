import type { Violation } from '../../shared/errors.js';
import { formatScaled, parseScaled, roundHalfUp } from './decimal.js';

/**
 * The totals of a quote, computed by this one function from its lines and the rules
 * of their groups (2024-11 service groups, 2024-12 group totals, 2024-04 grand totals):
 *
 * - all_included: every line counts;
 * - multiple_optional: the chosen lines count, any number of them;
 * - single_optional: at most one line is chosen, and it counts;
 * - single_required: exactly one line is chosen, and it counts;
 * - a line's amount is quantity × price, rounded half up to cents;
 * - VAT is computed per VAT class, on the sum of the counted lines of that class,
 *   rounded half up to cents;
 * - every amount is an exact decimal (scaled integers), never a binary float.
 *
 * Group totals apply the VAT rule within the group; the grand totals apply it over
 * the whole quote, so they are exact for the quote rather than a sum of rounded parts.
 */

export const SERVICE_GROUP_TYPES = ['all_included', 'multiple_optional', 'single_required', 'single_optional'] as const;
export type ServiceGroupType = (typeof SERVICE_GROUP_TYPES)[number];

export interface TotalsLine {
  /** decimal text or number, at most 4 decimals */
  quantity: string | number;
  price: string | number;
  /** the VAT class; lines without one have no VAT */
  vatClassId: string | null;
  /** the class's percentage, at most 4 decimals */
  vatPercentage: string | number;
  chosen: boolean;
}

export interface TotalsGroup {
  type: ServiceGroupType;
  lines: TotalsLine[];
}

export interface VatAmount {
  vatClassId: string | null;
  percentage: string;
  /** the counted amount of the class, excluding VAT */
  base: string;
  vat: string;
}

export interface Totals {
  excl: string;
  vat: string;
  incl: string;
  vatByClass: VatAmount[];
}

export interface QuoteTotals {
  groups: (Totals & { lineAmounts: string[]; counted: boolean[] })[];
  grandTotals: Totals;
}

const SCALE = 4;

/** Which lines of a group count, by the group's rule. */
export function countedLines(group: TotalsGroup): boolean[] {
  return group.lines.map((l) => group.type === 'all_included' || l.chosen);
}

/** The rule violations of the groups' choices, with the path of the group. */
export function choiceViolations(groups: TotalsGroup[], path = 'serviceGroups'): Violation[] {
  const out: Violation[] = [];
  groups.forEach((g, n) => {
    const chosen = g.lines.filter((l) => l.chosen).length;
    if (g.type === 'single_required' && chosen !== 1) {
      out.push({
        path: `${path}.${n}.services`,
        message: `a single_required group needs exactly one chosen service; ${chosen} are chosen`,
        code: 'single_required',
      });
    }
    if (g.type === 'single_optional' && chosen > 1) {
      out.push({
        path: `${path}.${n}.services`,
        message: `a single_optional group allows at most one chosen service; ${chosen} are chosen`,
        code: 'single_optional',
      });
    }
  });
  return out;
}

/** A line's amount in cents: quantity × price rounded half up to cents. */
export function lineCents(line: Pick<TotalsLine, 'quantity' | 'price'>): bigint {
  // scale 4 × scale 4 = scale 8; cents are scale 2
  return roundHalfUp(parseScaled(line.quantity, SCALE) * parseScaled(line.price, SCALE), 2 * SCALE - 2);
}

interface ClassSum {
  percentage: bigint;
  base: bigint;
}

function totalsOf(sums: Map<string | null, ClassSum>): Totals {
  let excl = 0n;
  let vat = 0n;
  const vatByClass: VatAmount[] = [];
  for (const [vatClassId, s] of sums) {
    // cents × percentage (scale 4) / 100 is scale 6 over cents: rounded half up to cents
    const classVat = roundHalfUp(s.base * s.percentage, SCALE + 2);
    excl += s.base;
    vat += classVat;
    vatByClass.push({
      vatClassId,
      percentage: formatScaled(s.percentage, SCALE),
      base: formatScaled(s.base, 2),
      vat: formatScaled(classVat, 2),
    });
  }
  return { excl: formatScaled(excl, 2), vat: formatScaled(vat, 2), incl: formatScaled(excl + vat, 2), vatByClass };
}

function add(sums: Map<string | null, ClassSum>, line: TotalsLine, cents: bigint) {
  const percentage = parseScaled(line.vatClassId === null ? 0 : line.vatPercentage, SCALE);
  const current = sums.get(line.vatClassId);
  if (current) current.base += cents;
  else sums.set(line.vatClassId, { percentage, base: cents });
}

/** Totals per group and for the whole quote. Choice violations are the caller's to refuse (see choiceViolations). */
export function computeQuoteTotals(groups: TotalsGroup[]): QuoteTotals {
  const grand = new Map<string | null, ClassSum>();
  const out: QuoteTotals['groups'] = [];
  for (const group of groups) {
    const counted = countedLines(group);
    const sums = new Map<string | null, ClassSum>();
    const lineAmounts: string[] = [];
    group.lines.forEach((line, i) => {
      const cents = lineCents(line);
      lineAmounts.push(formatScaled(cents, 2));
      if (!counted[i]) return;
      add(sums, line, cents);
      add(grand, line, cents);
    });
    out.push({ ...totalsOf(sums), lineAmounts, counted });
  }
  return { groups: out, grandTotals: totalsOf(grand) };
}
