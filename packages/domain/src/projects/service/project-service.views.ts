import { costTypeV2 } from '../../costs/coststype/coststype.resource.js';
import { hourTypeV2 } from '../../hours/hourstype/hourstype.resource.js';
import { v2Date, v2DateTime, v3DateTime } from '../../shared/format.js';
import { num } from '../../shared/numbers.js';
import { serviceBudget } from './budget.js';
import { type InvoiceMethod, invoiceMethodToV2, type SubscriptionCycle, subscriptionCycleToV2 } from './invoice-method.js';
import type { ProjectServiceRow } from './project-service.row.js';
import type { AcquisitionServiceOutput, AdvanceServiceOutput, InvoiceableServiceOutput } from './project-service.v3.schema.js';

/** v2 read shape (reference: GetProjectService, plus explanation, kind and billable on cost types). */
export function projectServiceV2(s: ProjectServiceRow): Record<string, unknown> {
  return {
    id: s.id,
    project_id: s.projectId,
    default_service_id: s.defaultServiceId,
    related_service_id: null,
    name: s.name,
    explanation: s.explanation,
    kind: s.kind,
    invoice_method: invoiceMethodToV2(s.invoiceMethod),
    subscription_cycle: subscriptionCycleToV2(s.subscriptionCycle),
    amount: num(s.amount),
    price: num(s.price),
    budget: serviceBudget(s).total.valueBudget,
    track_hours: s.trackHours,
    track_cost: s.trackCost,
    start_date: v2Date(s.startDate),
    end_date: v2Date(s.endDate),
    write_hours_start_date: v2Date(s.writeHoursStartDate),
    write_hours_end_date: v2Date(s.writeHoursEndDate),
    expected_invoice_date: v2Date(s.expectedInvoiceDate),
    invoice_date: null,
    status: s.status,
    vat_class: s.vatClassId ? { id: s.vatClassId, code: null, label: null, percentage: null } : null,
    revenue_group: s.revenueGroupId ? { id: s.revenueGroupId, label: null } : null,
    use_in_resource_planner: s.useInResourcePlanner,
    invoice_in_installments: s.invoiceInInstallments,
    installments: s.installments.map((i, order) => ({
      name: i.name,
      percentage: num(i.percentage),
      price: num(i.price),
      order,
      expiration_date: v2Date(i.expirationDate),
      status: i.status,
      invoiced_date: null,
      invoice_id: i.invoiceId,
      invoice_line_id: null,
    })),
    hour_types: s.hourTypes.map((h) => ({
      id: h.id,
      hourstype: hourTypeV2(h.hourType),
      color: h.hourType.color,
      budgeted_amount: num(h.budgetedAmount),
      tariff: num(h.tariff),
      billable: h.billable,
    })),
    cost_types: s.costTypes.map((c) => ({
      id: c.id,
      label: c.costType.label,
      costtype: costTypeV2(c.costType),
      budgeted_amount: num(c.budgetedAmount),
      tariff: num(c.tariff),
      purchase_margin: num(c.purchaseMargin),
      purchase_tariff: num(c.purchaseTariff),
      billable: c.billable,
    })),
    budget_financial_hours: null,
    service_number: s.serviceNumber,
    created_at: v2DateTime(s.createdAt),
    updated_at: v2DateTime(s.updatedAt),
  };
}

const d3 = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

function commonV3(s: ProjectServiceRow) {
  return {
    id: s.id,
    projectId: s.projectId,
    defaultServiceId: s.defaultServiceId,
    name: s.name,
    explanation: s.explanation,
    status: s.status as 'open' | 'invoiced',
    createdAt: v3DateTime(s.createdAt) as string,
    updatedAt: v3DateTime(s.updatedAt) as string,
  };
}

function hourTypesV3(s: ProjectServiceRow) {
  return s.hourTypes.map((h) => ({
    id: h.id,
    hourTypeId: h.hourTypeId,
    label: h.hourType.label,
    tariff: num(h.tariff),
    budgetedAmount: num(h.budgetedAmount),
    billable: h.billable,
  }));
}

export function invoiceableServiceV3(s: ProjectServiceRow): InvoiceableServiceOutput {
  return {
    ...commonV3(s),
    kind: 'invoiceable',
    invoiceMethod: s.invoiceMethod as InvoiceMethod,
    subscriptionCycle: s.subscriptionCycle as SubscriptionCycle | null,
    price: num(s.price),
    amount: num(s.amount),
    trackHours: s.trackHours,
    trackCost: s.trackCost,
    startDate: d3(s.startDate),
    endDate: d3(s.endDate),
    writeHoursStartDate: d3(s.writeHoursStartDate),
    writeHoursEndDate: d3(s.writeHoursEndDate),
    expectedInvoiceDate: d3(s.expectedInvoiceDate),
    vatClassId: s.vatClassId,
    revenueGroupId: s.revenueGroupId,
    useInResourcePlanner: s.useInResourcePlanner,
    invoiceInInstallments: s.invoiceInInstallments,
    installments: s.installments.map((i) => ({
      id: i.id,
      name: i.name,
      percentage: num(i.percentage),
      price: num(i.price),
      expirationDate: d3(i.expirationDate),
      status: i.status as 'open' | 'invoiced',
    })),
    hourTypes: hourTypesV3(s),
    costTypes: s.costTypes.map((c) => ({
      id: c.id,
      costTypeId: c.costTypeId,
      label: c.costType.label,
      tariff: num(c.tariff),
      purchaseTariff: num(c.purchaseTariff),
      budgetedAmount: num(c.budgetedAmount),
      billable: c.billable,
    })),
    budget: serviceBudget(s),
  };
}

export function acquisitionServiceV3(s: ProjectServiceRow): AcquisitionServiceOutput {
  return {
    ...commonV3(s),
    kind: 'acquisition',
    phase: s.phase as 'acquisition' | 'execution',
    startDate: d3(s.startDate),
    endDate: d3(s.endDate),
    hourTypes: hourTypesV3(s),
    budget: serviceBudget(s),
  };
}

export function advanceServiceV3(s: ProjectServiceRow): AdvanceServiceOutput {
  return {
    ...commonV3(s),
    kind: 'advance',
    price: num(s.price),
    expectedInvoiceDate: d3(s.expectedInvoiceDate),
    vatClassId: s.vatClassId,
    revenueGroupId: s.revenueGroupId,
  };
}

/** projectService.get shows each service in the shape of its kind. */
export function projectServiceV3(s: ProjectServiceRow): Record<string, unknown> {
  if (s.kind === 'acquisition') return acquisitionServiceV3(s);
  if (s.kind === 'advance') return advanceServiceV3(s);
  return invoiceableServiceV3(s);
}
