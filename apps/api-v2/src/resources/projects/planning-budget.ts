import type { PlanningBudget } from '@bo/domain/projects/service/planning-budget';
import { budgetV2 } from './budget.js';

/** GET …/{id}/planningBudget?by=projectservicehourstype&until_date=YYYY-MM-DD, as v2 answers it. */
export function planningBudgetV2(idKey: string, b: PlanningBudget, id: string) {
  return {
    [idKey]: id,
    until_date: b.untilDate,
    ...budgetV2(b),
    ...(b.hourTypes
      ? {
          hour_types: b.hourTypes.map((h) => ({
            id: h.id,
            hourstype_id: h.hourTypeId,
            label: h.label,
            amount_budget: h.amountBudget,
            value_budget: h.valueBudget,
            amount_spent: h.amountSpent,
            value_spent: h.valueSpent,
          })),
        }
      : {}),
  };
}
