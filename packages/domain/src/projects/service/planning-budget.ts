import { z } from 'zod';
import { getEntity } from '../../shared/entity/index.js';
import { dateInput } from '../../shared/numbers.js';
import type { UserContext } from '../../trpc.js';
import { project } from '../project/project.entity.js';
import { type Budget, projectBudget, serviceBudget } from './budget.js';
import { projectService } from './project-service.entity.js';
import type { serviceHourTypeShape } from './project-service.shapes.js';

/** The planning budget, in total or per hour type (`by`), until a date. */
export const planningBudgetInput = z.object({
  by: z.enum(['projectservicehourstype']).optional(),
  untilDate: dateInput.optional(),
});
export type PlanningBudgetInput = z.infer<typeof planningBudgetInput>;

export interface HourTypeBudget {
  /** the service line */
  id: string;
  hourTypeId: string;
  label: string;
  amountBudget: number;
  valueBudget: number;
  amountSpent: number;
  valueSpent: number;
}

export interface PlanningBudget extends Budget {
  untilDate: string | null;
  /** only when asked for `by` hour type */
  hourTypes?: HourTypeBudget[];
}

function perHourType(lines: z.infer<typeof serviceHourTypeShape>[]): HourTypeBudget[] {
  return lines.map((h) => {
    const amount = h.budgetedAmount ?? 0;
    return {
      id: h.id,
      hourTypeId: h.hourType?.id ?? '',
      label: h.hourType?.label ?? '',
      amountBudget: amount,
      valueBudget: Math.round(amount * (h.tariff ?? 0) * 100) / 100,
      amountSpent: 0,
      valueSpent: 0,
    };
  });
}

const untilOf = (input: PlanningBudgetInput) => (input.untilDate ? input.untilDate.toISOString().slice(0, 10) : null);

export async function servicePlanningBudget(ctx: UserContext, id: string, input: PlanningBudgetInput): Promise<PlanningBudget> {
  const service = await getEntity(ctx, projectService, id);
  return {
    untilDate: untilOf(input),
    ...serviceBudget(service),
    ...(input.by ? { hourTypes: perHourType(service.hourTypes) } : {}),
  };
}

export async function projectPlanningBudget(ctx: UserContext, id: string, input: PlanningBudgetInput): Promise<PlanningBudget> {
  const p = await getEntity(ctx, project, id);
  return {
    untilDate: untilOf(input),
    ...projectBudget(p),
    ...(input.by ? { hourTypes: p.services.flatMap((s) => perHourType(s.hourTypes)) } : {}),
  };
}
