import { createProjectServiceInput, updateProjectServiceInput } from '@bo/domain/projects/service/project-service.schema';
import type { Violation } from '@bo/domain';
import { serviceBudget } from '@bo/domain/projects/service/budget';
import { type ProjectService, projectService } from '@bo/domain/projects/service/project-service.entity';
import { prefixMessage } from '@bo/domain/projects/service/save-project-service';
import { costTypeV2 } from '../costs/coststype.js';
import { hourTypeV2 } from '../hours/hourstype.js';
import { snake, type V2Names, v2DateTime, v2Names } from '../v2-names.js';
import { v2Action, v2Resource, type V2Input } from '../v2-resource.js';
import { invoiceMethodFromV2, invoiceMethodToV2, subscriptionCycleFromV2, subscriptionCycleToV2 } from './invoice-method.js';
import { planningBudgetV2 } from './planning-budget.js';

const names = v2Names();

/** v2 hour_types hold hour types and cost types alike, told apart by the id's prefix. */
const V2_LINE_ACCEPTS = ['hourtype', 'itemtype'];

interface LineOrigin {
  index: number;
  /** the property the client named the type id with: `hourtype_id` (the contract) or `hourstype_id` (the reference) */
  idField: 'hourtype_id' | 'hourstype_id';
  typeId: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A v2 body of a service (projects/service, sales/service) in domain terms: the invoice
 * method and cycle in the domain's words, hour_types split into hour and cost type lines.
 */
export const v2ServiceInput =
  (serviceNames: V2Names) =>
  (body: Record<string, unknown>): V2Input => {
    const { hour_types: lines, invoice_method: method, subscription_cycle: cycle, ...rest } = body;
    const data = serviceNames.input(rest) as Record<string, unknown>;
    if (method !== undefined) data.invoiceMethod = invoiceMethodFromV2(method);
    if (cycle !== undefined) data.subscriptionCycle = subscriptionCycleFromV2(cycle);
    const origins: Record<'hourTypes' | 'costTypes', LineOrigin[]> = { hourTypes: [], costTypes: [] };
    if (lines !== undefined) {
      if (!Array.isArray(lines)) data.hourTypes = lines;
      else {
        const hourTypes: unknown[] = [];
        const costTypes: unknown[] = [];
        lines.forEach((line, index) => {
          if (!isObject(line)) {
            origins.hourTypes.push({ index, idField: 'hourtype_id', typeId: undefined });
            hourTypes.push(line);
            return;
          }
          const idField = line.hourtype_id === undefined && line.hourstype_id !== undefined ? 'hourstype_id' : 'hourtype_id';
          const typeId = line[idField];
          const values = {
            tariff: line.tariff,
            budgetedAmount: line.budgeted_amount,
            billable: line.billable,
          };
          if (typeof typeId === 'string' && typeId.startsWith('itemtype:')) {
            origins.costTypes.push({ index, idField, typeId });
            costTypes.push({ costTypeId: typeId, ...values, purchaseTariff: line.purchase_tariff });
          } else {
            origins.hourTypes.push({ index, idField, typeId });
            hourTypes.push({ hourTypeId: typeId, ...values });
          }
        });
        data.hourTypes = hourTypes;
        data.costTypes = costTypes;
      }
    }
    const violation = (v: Violation): Violation | null => {
      const m = /^(hourTypes|costTypes)\.(\d+)(?:\.(.+))?$/.exec(v.path);
      const origin = m ? origins[m[1] as 'hourTypes' | 'costTypes'][Number(m[2])] : undefined;
      if (!m || !origin) return null;
      const property = m[3] === 'hourTypeId' || m[3] === 'costTypeId' ? origin.idField : m[3] ? snake(m[3]) : '';
      return {
        ...v,
        path: `hour_types.${origin.index}${property ? `.${property}` : ''}`,
        message: v.code === 'invalid_prefix' ? prefixMessage(V2_LINE_ACCEPTS, String(origin.typeId)) : v.message,
      };
    };
    return { data, violation };
  };

/** A cost type line of a service (reference GetProjectServiceCostType, GetSalesServiceCostType), plus billable. */
export function costTypeLineV2(c: ProjectService['costTypes'][number]) {
  return {
    id: c.id,
    label: c.costType?.label ?? null,
    costtype: c.costType ? costTypeV2(c.costType) : null,
    budgeted_amount: c.budgetedAmount,
    tariff: c.tariff,
    purchase_margin: c.purchaseMargin,
    purchase_tariff: c.purchaseTariff,
    billable: c.billable,
  };
}

/** projects/service (reference: GetProjectService, plus explanation, kind and billable on cost types). */
export const projectServiceV2 = v2Resource<ProjectService>({
  path: 'projects/service',
  entity: projectService,
  inputs: { create: createProjectServiceInput, update: updateProjectServiceInput, remove: true },
  procedures: (c) => c.projects.service,
  names,
  input: v2ServiceInput(names),
  read: (s) => ({
    id: s.id,
    project_id: s.projectId,
    default_service_id: s.defaultServiceId,
    related_service_id: null,
    name: s.name,
    explanation: s.explanation,
    kind: s.kind,
    invoice_method: invoiceMethodToV2(s.invoiceMethod),
    subscription_cycle: subscriptionCycleToV2(s.subscriptionCycle),
    amount: s.amount,
    price: s.price,
    budget: serviceBudget(s).total.valueBudget,
    invoiced_amount: s.invoicedAmount,
    track_hours: s.trackHours,
    track_cost: s.trackCost,
    start_date: s.startDate,
    end_date: s.endDate,
    write_hours_start_date: s.writeHoursStartDate,
    write_hours_end_date: s.writeHoursEndDate,
    expected_invoice_date: s.expectedInvoiceDate,
    invoice_date: null,
    status: s.status,
    vat_class: s.vatClassId ? { id: s.vatClassId, code: null, label: null, percentage: null } : null,
    revenue_group: s.revenueGroupId ? { id: s.revenueGroupId, label: null } : null,
    use_in_resource_planner: s.useInResourcePlanner,
    invoice_in_installments: s.invoiceInInstallments,
    installments: s.installments.map((i, order) => ({
      name: i.name,
      percentage: i.percentage,
      price: i.price,
      order,
      expiration_date: i.expirationDate,
      status: i.status,
      invoiced_date: null,
      invoice_id: i.invoiceId,
      invoice_line_id: null,
    })),
    hour_types: s.hourTypes.map((h) => ({
      id: h.id,
      hourstype: h.hourType ? hourTypeV2(h.hourType) : null,
      color: h.hourType?.color ?? null,
      budgeted_amount: h.budgetedAmount,
      tariff: h.tariff,
      billable: h.billable,
    })),
    cost_types: s.costTypes.map(costTypeLineV2),
    budget_financial_hours: null,
    service_number: s.serviceNumber,
    created_at: v2DateTime(s.createdAt),
    updated_at: v2DateTime(s.updatedAt),
  }),
  actions: [
    v2Action({ name: 'duplicate', method: 'POST', call: (c) => c.projects.service.duplicate }),
    v2Action({
      name: 'planningBudget',
      method: 'GET',
      call: (c) => c.projects.service.planningBudget,
      read: (b, id) => planningBudgetV2('project_service_id', b, id),
    }),
  ],
});
