import { num } from '../../shared/numbers.js';
import type { ProjectServiceRow } from './project-service.row.js';

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

type BudgetSource = Pick<ProjectServiceRow, 'invoiceMethod' | 'price' | 'amount' | 'hourTypes' | 'costTypes' | 'invoiceLines'>;

export function serviceBudget(s: BudgetSource): Budget {
  let hoursAmount = 0;
  let hoursValue = 0;
  for (const h of s.hourTypes) {
    const amount = num(h.budgetedAmount) ?? 0;
    hoursAmount += amount;
    hoursValue += amount * (num(h.tariff) ?? 0);
  }
  let costsValue = 0;
  for (const c of s.costTypes) costsValue += (num(c.budgetedAmount) ?? 0) * (num(c.tariff) ?? 0);
  const fixed = s.invoiceMethod !== 'time_and_expenses' && s.price !== null;
  const total = fixed ? (num(s.price) ?? 0) * (num(s.amount) ?? 1) : hoursValue + costsValue;
  const invoiced = s.invoiceLines.reduce((sum, l) => sum + (num(l.amount) ?? 0), 0);
  return {
    hours: { amountBudget: round(hoursAmount), amountSpent: 0, valueBudget: round(hoursValue), valueSpent: 0 },
    costs: { valueBudget: round(costsValue), valueSpent: 0 },
    total: { valueBudget: round(total), valueSpent: 0, valueInvoiced: round(invoiced) },
  };
}

export function sumBudgets(budgets: Budget[]): Budget {
  const out = serviceBudget({
    invoiceMethod: 'time_and_expenses',
    price: null,
    amount: null,
    hourTypes: [],
    costTypes: [],
    invoiceLines: [],
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

/** v2 spelling (reference: Budget). */
export function budgetV2(b: Budget) {
  return {
    hours: {
      amount_budget: b.hours.amountBudget,
      amount_spent: b.hours.amountSpent,
      value_budget: b.hours.valueBudget,
      value_spent: b.hours.valueSpent,
    },
    costs: { value_budget: b.costs.valueBudget, value_spent: b.costs.valueSpent },
    total: { value_budget: b.total.valueBudget, value_spent: b.total.valueSpent, value_invoiced: b.total.valueInvoiced },
  };
}
