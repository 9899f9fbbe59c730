import { z } from 'zod';
import { getEntity } from '../../shared/entity/index.js';
import { dateInput } from '../../shared/numbers.js';
import type { UserContext } from '../../trpc.js';
import { project } from '../project/project.entity.js';
import { budgetSchema, type Spent, serviceBudget, sumBudgets } from './budget.js';
import { projectService } from './project-service.entity.js';
import type { serviceHourTypeShape } from './project-service.shapes.js';

/** The planning budget, in total or per hour type (`by`), until a date. */
export const planningBudgetInput = z.object({
  by: z.enum(['projectservicehourstype']).optional(),
  untilDate: dateInput.optional(),
});
export type PlanningBudgetInput = z.infer<typeof planningBudgetInput>;

export const hourTypeBudgetSchema = z.object({
  /** the service line */
  id: z.string(),
  hourTypeId: z.string(),
  label: z.string(),
  amountBudget: z.number(),
  valueBudget: z.number(),
  amountSpent: z.number(),
  valueSpent: z.number(),
});
export type HourTypeBudget = z.infer<typeof hourTypeBudgetSchema>;

export const planningBudgetSchema = budgetSchema.extend({
  /** a calendar date, `YYYY-MM-DD` */
  untilDate: z.string().nullable(),
  /** only when asked for `by` hour type */
  hourTypes: z.array(hourTypeBudgetSchema).optional(),
});
export type PlanningBudget = z.infer<typeof planningBudgetSchema>;

/** Hours spent per service and hour type, and costs per service, until a day: summed in SQL. */
interface SpentRows {
  hours: Map<string, { minutes: number; value: number }>;
  costs: Map<string, number>;
}

async function spentUntil(ctx: UserContext, serviceIds: string[], until: string | null): Promise<SpentRows> {
  const [hours, costs] = await Promise.all([
    ctx.sql.read<{ service: string; type: string; minutes: number; value: number }>(
      `SELECT h.project_service_id AS service, h.hour_type_id AS type, sum(h.duration_minutes)::float8 AS minutes,
              round(sum(h.duration_minutes * COALESCE(h.tariff, 0)) / 60.0, 2)::float8 AS value
         FROM hour_registration h
        WHERE h.environment_id = $1 AND h.project_service_id = ANY($2::text[]) AND ($3::date IS NULL OR h.start_date <= $3::date)
        GROUP BY 1, 2`,
      [serviceIds, until],
    ),
    ctx.sql.read<{ service: string; value: number }>(
      `SELECT e.project_service_id AS service, round(sum(e.amount * COALESCE(e.tariff, 0)), 2)::float8 AS value
         FROM expense e
        WHERE e.environment_id = $1 AND e.project_service_id = ANY($2::text[]) AND ($3::date IS NULL OR e.start_date <= $3::date)
        GROUP BY 1`,
      [serviceIds, until],
    ),
  ]);
  return {
    hours: new Map(hours.map((r) => [`${r.service} ${r.type}`, { minutes: r.minutes, value: r.value }])),
    costs: new Map(costs.map((r) => [r.service, r.value])),
  };
}

function spentOfService(rows: SpentRows, serviceId: string): Spent {
  let minutes = 0;
  let hoursValue = 0;
  for (const [key, v] of rows.hours) {
    if (!key.startsWith(`${serviceId} `)) continue;
    minutes += v.minutes;
    hoursValue += v.value;
  }
  return { minutes, hoursValue, costsValue: rows.costs.get(serviceId) ?? 0 };
}

function perHourType(serviceId: string, lines: z.infer<typeof serviceHourTypeShape>[], rows: SpentRows): HourTypeBudget[] {
  return lines.map((h) => {
    const amount = h.budgetedAmount ?? 0;
    const spent = rows.hours.get(`${serviceId} ${h.hourType?.id ?? ''}`);
    return {
      id: h.id,
      hourTypeId: h.hourType?.id ?? '',
      label: h.hourType?.label ?? '',
      amountBudget: amount,
      valueBudget: Math.round(amount * (h.tariff ?? 0) * 100) / 100,
      amountSpent: Math.round(((spent?.minutes ?? 0) / 60) * 100) / 100,
      valueSpent: spent?.value ?? 0,
    };
  });
}

const untilOf = (input: PlanningBudgetInput) => (input.untilDate ? input.untilDate.toISOString().slice(0, 10) : null);

export async function servicePlanningBudget(ctx: UserContext, id: string, input: PlanningBudgetInput): Promise<PlanningBudget> {
  const service = await getEntity(ctx, projectService, id);
  const until = untilOf(input);
  const rows = await spentUntil(ctx, [service.id], until);
  return {
    untilDate: until,
    ...serviceBudget({ ...service, spent: spentOfService(rows, service.id) }),
    ...(input.by ? { hourTypes: perHourType(service.id, service.hourTypes, rows) } : {}),
  };
}

export async function projectPlanningBudget(ctx: UserContext, id: string, input: PlanningBudgetInput): Promise<PlanningBudget> {
  const p = await getEntity(ctx, project, id);
  const until = untilOf(input);
  const rows = await spentUntil(
    ctx,
    p.services.map((s) => s.id),
    until,
  );
  return {
    untilDate: until,
    ...sumBudgets(p.services.map((s) => serviceBudget({ ...s, spent: spentOfService(rows, s.id) }))),
    ...(input.by ? { hourTypes: p.services.flatMap((s) => perHourType(s.id, s.hourTypes, rows)) } : {}),
  };
}
