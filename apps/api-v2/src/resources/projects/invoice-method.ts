/** The v2 spelling of invoice methods and subscription cycles (v3 and the domain use fixed_price, month, …). */
const METHODS: Record<string, string> = { fixed_price: 'FixedFee', time_and_expenses: 'Hours', subscription: 'Subscription' };
const CYCLES: Record<string, string> = { month: 'Month', quarter: 'Quarter', half_year: 'Half_a_year', year: 'Year' };

const invert = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [v, k]));
const METHODS_FROM_V2 = invert(METHODS);
const CYCLES_FROM_V2 = invert(CYCLES);

export function invoiceMethodToV2(m: string): string {
  return METHODS[m] ?? 'Hours';
}

export function subscriptionCycleToV2(c: string | null): string | null {
  return c === null ? null : (CYCLES[c] ?? null);
}

/** A v2 value in domain terms; an unknown value is passed on for the domain to refuse by name. */
export function invoiceMethodFromV2(m: unknown): unknown {
  return typeof m === 'string' ? (METHODS_FROM_V2[m] ?? m) : m;
}

export function subscriptionCycleFromV2(c: unknown): unknown {
  return typeof c === 'string' ? (CYCLES_FROM_V2[c] ?? c) : c;
}
