import { z } from 'zod';
import { NotFoundError } from '../../shared/errors.js';
import { dateInput, num } from '../../shared/numbers.js';
import type { UserContext } from '../../trpc.js';
import { budgetV2, serviceBudget, sumBudgets } from './budget.js';
import { loadProjectServices, projectServiceInclude } from './project-service.row.js';

/** GET …/{id}/planningBudget?by=projectservicehourstype&until_date=YYYY-MM-DD (query parameters arrive as strings). */
export const planningBudgetSchema = z.object({
  by: z.enum(['projectservicehourstype']).optional(),
  until_date: dateInput.optional(),
});
type PlanningBudgetInput = z.infer<typeof planningBudgetSchema>;

function perHourType(hourTypes: Awaited<ReturnType<typeof loadProjectServices>>[number]['hourTypes']) {
  return hourTypes.map((h) => {
    const amount = num(h.budgetedAmount) ?? 0;
    return {
      id: h.id,
      hourstype_id: h.hourTypeId,
      label: h.hourType.label,
      amount_budget: amount,
      value_budget: Math.round(amount * (num(h.tariff) ?? 0) * 100) / 100,
      amount_spent: 0,
      value_spent: 0,
    };
  });
}

export async function serviceplanningBudget(ctx: UserContext, id: string, input: PlanningBudgetInput) {
  const [service] = await loadProjectServices(ctx.db, [id]);
  if (!service) throw new NotFoundError('projectservice', id);
  return {
    project_service_id: id,
    until_date: input.until_date ? input.until_date.toISOString().slice(0, 10) : null,
    ...budgetV2(serviceBudget(service)),
    ...(input.by ? { hour_types: perHourType(service.hourTypes) } : {}),
  };
}

export async function projectPlanningBudget(ctx: UserContext, id: string, input: PlanningBudgetInput) {
  const project = await ctx.db.project.findUnique({ where: { id }, include: { services: { include: projectServiceInclude } } });
  if (!project) throw new NotFoundError('project', id);
  return {
    project_id: id,
    until_date: input.until_date ? input.until_date.toISOString().slice(0, 10) : null,
    ...budgetV2(sumBudgets(project.services.map(serviceBudget))),
    ...(input.by ? { hour_types: project.services.flatMap((s) => perHourType(s.hourTypes)) } : {}),
  };
}
