/**
 * Budget of a service or a project. Budgets come from the service lines
 * (budgeted amount × tariff; a fixed price is its own budget); spent values
 * stay 0 until hour and cost registrations exist in this service.
 */
export interface Budget {
  hours: { amountBudget: number; amountSpent: number; valueBudget: number; valueSpent: number };
  costs: { valueBudget: number; valueSpent: number };
  total: { valueBudget: number; valueSpent: number; valueInvoiced: number };
}

const round = (n: number) => Math.round(n * 100) / 100;

interface BudgetLine {
  budgetedAmount: number | null;
  tariff: number | null;
}

/** What a budget is computed from: a service as the entity reads it (or as a project embeds it). */
export interface BudgetSource {
  invoiceMethod: string;
  price: number | null;
  amount: number | null;
  hourTypes: BudgetLine[];
  costTypes: BudgetLine[];
  /** what invoices (not drafts) have billed */
  invoicedAmount: number;
}

export function serviceBudget(s: BudgetSource): Budget {
  let hoursAmount = 0;
  let hoursValue = 0;
  for (const h of s.hourTypes) {
    const amount = h.budgetedAmount ?? 0;
    hoursAmount += amount;
    hoursValue += amount * (h.tariff ?? 0);
  }
  let costsValue = 0;
  for (const c of s.costTypes) costsValue += (c.budgetedAmount ?? 0) * (c.tariff ?? 0);
  const fixed = s.invoiceMethod !== 'time_and_expenses' && s.price !== null;
  const total = fixed ? (s.price ?? 0) * (s.amount ?? 1) : hoursValue + costsValue;
  return {
    hours: { amountBudget: round(hoursAmount), amountSpent: 0, valueBudget: round(hoursValue), valueSpent: 0 },
    costs: { valueBudget: round(costsValue), valueSpent: 0 },
    total: { valueBudget: round(total), valueSpent: 0, valueInvoiced: round(s.invoicedAmount) },
  };
}

export function sumBudgets(budgets: Budget[]): Budget {
  const out = serviceBudget({
    invoiceMethod: 'time_and_expenses',
    price: null,
    amount: null,
    hourTypes: [],
    costTypes: [],
    invoicedAmount: 0,
  });
  for (const b of budgets) {
    out.hours.amountBudget = round(out.hours.amountBudget + b.hours.amountBudget);
    out.hours.valueBudget = round(out.hours.valueBudget + b.hours.valueBudget);
    out.costs.valueBudget = round(out.costs.valueBudget + b.costs.valueBudget);
    out.total.valueBudget = round(out.total.valueBudget + b.total.valueBudget);
    out.total.valueInvoiced = round(out.total.valueInvoiced + b.total.valueInvoiced);
  }
  return out;
}

/** The budget of a project: the sum of its services'. */
export function projectBudget(p: { services: BudgetSource[] }): Budget {
  return sumBudgets(p.services.map(serviceBudget));
}
