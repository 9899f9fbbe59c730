import type { z } from 'zod';
import { ValidationError, type Violation } from '../../../shared/errors.js';
import { num } from '../../../shared/numbers.js';
import { loadDefaultServices } from '../../../services/defaultservice/defaultservice.resource.js';
import type { UserContext } from '../../../trpc.js';
import { resolveBillable } from '../billable.js';
import { DEFAULT_SUBSCRIPTION_CYCLE, type InvoiceMethod } from '../invoice-method.js';
import type { BuildProjectService, BuiltServiceOutput } from '../project-service.v3.schema.js';

/**
 * projectService.build and projectService.build.acquisition: the configuration
 * a new service would get from a default service on this project. Reads only:
 * nothing is stored. A missing project or default service is a 422.
 */
export async function buildProjectService(
  ctx: UserContext,
  input: z.output<typeof BuildProjectService>,
  kind: 'invoiceable' | 'acquisition',
): Promise<BuiltServiceOutput> {
  const [project, [template]] = await Promise.all([
    ctx.db.project.findUnique({ where: { id: input.projectId } }),
    loadDefaultServices(ctx.db, [input.defaultServiceId]),
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
    price: kind === 'acquisition' ? null : num(template.price),
    trackHours: template.trackHours,
    trackCost: kind === 'acquisition' ? false : template.trackCost,
    vatClassId: template.vatClassId,
    revenueGroupId: template.revenueGroupId,
    hourTypes: template.hourTypes.map((h) => ({
      hourTypeId: h.hourTypeId,
      label: h.hourType.label,
      tariff: num(h.tariff) ?? num(h.hourType.tariff),
      budgetedAmount: num(h.budgetedAmount),
      billable: billable(proposed),
    })),
    costTypes:
      kind === 'acquisition'
        ? []
        : template.costTypes.map((c) => ({
            costTypeId: c.costTypeId,
            label: c.costType.label,
            tariff: num(c.tariff) ?? num(c.costType.tariff),
            purchaseTariff: num(c.purchaseTariff),
            budgetedAmount: num(c.budgetedAmount),
            billable: billable(proposed),
          })),
  };
}
