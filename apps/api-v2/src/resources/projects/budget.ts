import type { Budget } from '@bo/domain/projects/service/budget';

/** v2 spelling of a budget (reference: Budget). */
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
