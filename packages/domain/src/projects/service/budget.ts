import { z } from 'zod';

/**
 * Budget of a service or a project. Budgets come from the service lines
 * (budgeted amount × tariff; a fixed price is its own budget); spent values
 * come from the hour registrations (duration × the tariff booked) and the
 * expenses (amount × tariff) of the service, summed in SQL (`spentSql`).
 */
export const budgetSchema = z.object({
  hours: z.object({ amountBudget: z.number(), amountSpent: z.number(), valueBudget: z.number(), valueSpent: z.number() }),
  costs: z.object({ valueBudget: z.number(), valueSpent: z.number() }),
  total: z.object({ valueBudget: z.number(), valueSpent: z.number(), valueInvoiced: z.number() }),
});
export type Budget = z.infer<typeof budgetSchema>;

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
  /** what the service's hours and expenses have spent (absent: nothing) */
  spent?: Spent | null;
}

/** What hours and costs have spent on a service. */
export const spentShape = z.object({ minutes: z.number(), hoursValue: z.number(), costsValue: z.number() });
export type Spent = z.infer<typeof spentShape>;

/** The spent figures of the service aliased `t`, in SQL: hours × tariff and costs, on their indexes. */
export const spentSql = (t: string) =>
  `SELECT json_build_object(
      'minutes', COALESCE(hs.minutes, 0), 'hoursValue', COALESCE(hs.value, 0), 'costsValue', COALESCE(cs.value, 0))
     FROM (SELECT sum(h.duration_minutes)::float8 AS minutes,
                  round(sum(h.duration_minutes * COALESCE(h.tariff, 0)) / 60.0, 2)::float8 AS value
             FROM hour_registration h WHERE h.environment_id = ${t}.environment_id AND h.project_service_id = ${t}.id) hs,
          (SELECT round(sum(e.amount * COALESCE(e.tariff, 0)), 2)::float8 AS value
             FROM expense e WHERE e.environment_id = ${t}.environment_id AND e.project_service_id = ${t}.id) cs`;

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
  const spent = s.spent ?? { minutes: 0, hoursValue: 0, costsValue: 0 };
  return {
    hours: {
      amountBudget: round(hoursAmount),
      amountSpent: round(spent.minutes / 60),
      valueBudget: round(hoursValue),
      valueSpent: round(spent.hoursValue),
    },
    costs: { valueBudget: round(costsValue), valueSpent: round(spent.costsValue) },
    total: {
      valueBudget: round(total),
      valueSpent: round(spent.hoursValue + spent.costsValue),
      valueInvoiced: round(s.invoicedAmount),
    },
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
    out.hours.amountSpent = round(out.hours.amountSpent + b.hours.amountSpent);
    out.hours.valueSpent = round(out.hours.valueSpent + b.hours.valueSpent);
    out.costs.valueSpent = round(out.costs.valueSpent + b.costs.valueSpent);
    out.total.valueSpent = round(out.total.valueSpent + b.total.valueSpent);
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
