import { defaultService } from '../../../services/defaultservice/defaultservice.entity.js';
import { ValidationError, type Violation } from '../../../shared/errors.js';
import type { UserContext } from '../../../trpc.js';
import { resolveBillable } from '../billable.js';
import { z } from 'zod';
import { DEFAULT_SUBSCRIPTION_CYCLE, INVOICE_METHODS, type InvoiceMethod, SUBSCRIPTION_CYCLES } from '../invoice-method.js';
import type { BuildProjectServiceInput } from '../project-service.schema.js';

/** What a new service would get from a default service on a project; nothing is stored. */
export const builtServiceSchema = z.object({
  kind: z.enum(['invoiceable', 'acquisition']),
  projectId: z.string(),
  defaultServiceId: z.string(),
  name: z.string(),
  explanation: z.string().nullable(),
  /** null for an acquisition service */
  invoiceMethod: z.enum(INVOICE_METHODS).nullable(),
  subscriptionCycle: z.enum(SUBSCRIPTION_CYCLES).nullable(),
  price: z.number().nullable(),
  trackHours: z.boolean(),
  trackCost: z.boolean(),
  vatClassId: z.string().nullable(),
  revenueGroupId: z.string().nullable(),
  hourTypes: z.array(
    z.object({
      hourTypeId: z.string(),
      label: z.string(),
      tariff: z.number().nullable(),
      budgetedAmount: z.number().nullable(),
      billable: z.boolean(),
    }),
  ),
  costTypes: z.array(
    z.object({
      costTypeId: z.string(),
      label: z.string(),
      tariff: z.number().nullable(),
      purchaseTariff: z.number().nullable(),
      budgetedAmount: z.number().nullable(),
      billable: z.boolean(),
    }),
  ),
});
export type BuiltService = z.infer<typeof builtServiceSchema>;

/**
 * projectService.build and projectService.build.acquisition: the configuration
 * a new service would get from a default service on this project. Reads only:
 * nothing is stored. A missing project or default service is a 422.
 */
export async function buildProjectService(
  ctx: UserContext,
  input: BuildProjectServiceInput,
  kind: 'invoiceable' | 'acquisition',
): Promise<BuiltService> {
  const [project, [template]] = await Promise.all([
    ctx.db.project.findUnique({ where: { id: input.projectId } }),
    defaultService.loader.byIds(ctx.sql, [input.defaultServiceId]),
  ]);
  const missing: Violation[] = [];
  if (!project) missing.push({ path: 'projectId', message: `no such project: ${input.projectId}`, code: 'not_found' });
  if (!template)
    missing.push({ path: 'defaultServiceId', message: `no such default service: ${input.defaultServiceId}`, code: 'not_found' });
  if (!project || !template) throw new ValidationError(missing);

  const method = template.invoiceMethod as InvoiceMethod;
  const internal = kind === 'acquisition' || !project.billable;
  // the proposal: what the billable rule makes of "not said"; on hours, billable is proposed as true
  const billable = (given: boolean | null) => {
    const outcome = resolveBillable(method, internal, given);
    return outcome.ok ? outcome.value : true;
  };
  const proposed = internal ? null : method === 'time_and_expenses' ? true : null;
  return {
    kind,
    projectId: project.id,
    defaultServiceId: template.id,
    name: template.name,
    explanation: template.explanation,
    invoiceMethod: kind === 'acquisition' ? null : method,
    subscriptionCycle: kind !== 'acquisition' && method === 'subscription' ? DEFAULT_SUBSCRIPTION_CYCLE : null,
    price: kind === 'acquisition' ? null : template.price,
    trackHours: template.trackHours,
    trackCost: kind === 'acquisition' ? false : template.trackCost,
    vatClassId: template.vatClassId,
    revenueGroupId: template.revenueGroupId,
    hourTypes: template.hourTypes.map((h) => ({
      hourTypeId: h.hourType?.id ?? '',
      label: h.hourType?.label ?? '',
      tariff: h.tariff ?? h.hourType?.tariff ?? null,
      budgetedAmount: h.budgetedAmount,
      billable: billable(proposed),
    })),
    costTypes:
      kind === 'acquisition'
        ? []
        : template.costTypes.map((c) => ({
            costTypeId: c.costType?.id ?? '',
            label: c.costType?.label ?? '',
            tariff: c.tariff ?? c.costType?.tariff ?? null,
            purchaseTariff: c.purchaseTariff,
            budgetedAmount: c.budgetedAmount,
            billable: billable(proposed),
          })),
  };
}
