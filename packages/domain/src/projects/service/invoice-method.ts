/**
 * The invoice method of a service in the domain's words, and its v2 spelling.
 * v3 uses the domain's words (fixed_price, time_and_expenses, subscription).
 */
export const INVOICE_METHODS = ['fixed_price', 'time_and_expenses', 'subscription'] as const;
export type InvoiceMethod = (typeof INVOICE_METHODS)[number];

export const V2_INVOICE_METHODS = ['FixedFee', 'Hours', 'Subscription'] as const;
export type V2InvoiceMethod = (typeof V2_INVOICE_METHODS)[number];

const TO_V2: Record<InvoiceMethod, V2InvoiceMethod> = {
  fixed_price: 'FixedFee',
  time_and_expenses: 'Hours',
  subscription: 'Subscription',
};

export function invoiceMethodToV2(m: string): V2InvoiceMethod {
  return TO_V2[m as InvoiceMethod] ?? 'Hours';
}

export function invoiceMethodFromV2(m: V2InvoiceMethod): InvoiceMethod {
  return (Object.keys(TO_V2) as InvoiceMethod[]).find((k) => TO_V2[k] === m) as InvoiceMethod;
}

export const SUBSCRIPTION_CYCLES = ['month', 'quarter', 'half_year', 'year'] as const;
export type SubscriptionCycle = (typeof SUBSCRIPTION_CYCLES)[number];

export const V2_SUBSCRIPTION_CYCLES = ['Month', 'Quarter', 'Half_a_year', 'Year'] as const;
export type V2SubscriptionCycle = (typeof V2_SUBSCRIPTION_CYCLES)[number];

export function subscriptionCycleToV2(c: string | null): V2SubscriptionCycle | null {
  const i = SUBSCRIPTION_CYCLES.indexOf(c as SubscriptionCycle);
  return i === -1 ? null : (V2_SUBSCRIPTION_CYCLES[i] as V2SubscriptionCycle);
}

export function subscriptionCycleFromV2(c: V2SubscriptionCycle): SubscriptionCycle {
  return SUBSCRIPTION_CYCLES[V2_SUBSCRIPTION_CYCLES.indexOf(c)] as SubscriptionCycle;
}

/** A subscription without a cycle is billed monthly (contract, 2025-03). */
export const DEFAULT_SUBSCRIPTION_CYCLE: SubscriptionCycle = 'month';
