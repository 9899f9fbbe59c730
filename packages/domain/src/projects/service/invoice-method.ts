/** The invoice method of a service: a fixed price, time and expenses, or a subscription. */
export const INVOICE_METHODS = ['fixed_price', 'time_and_expenses', 'subscription'] as const;
export type InvoiceMethod = (typeof INVOICE_METHODS)[number];

export const SUBSCRIPTION_CYCLES = ['month', 'quarter', 'half_year', 'year'] as const;
export type SubscriptionCycle = (typeof SUBSCRIPTION_CYCLES)[number];

/** A subscription without a cycle is billed monthly (contract, 2025-03). */
export const DEFAULT_SUBSCRIPTION_CYCLE: SubscriptionCycle = 'month';
