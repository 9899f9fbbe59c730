import { type Expense, expense } from '@bo/domain/costs/expense/expense.entity';
import { createExpenseInput, updateExpenseInput } from '@bo/domain/costs/expense/expense.schema';
import { employeeSimpleV2 } from '../hrm/employee.js';
import { projectSimpleV2 } from '../shared/simple.js';
import { v2Names } from '../v2-names.js';
import { type AnyV2Resource, v2Resource } from '../v2-resource.js';

const names = v2Names({
  service_id: 'projectServiceId',
  projectservice_id: 'projectServiceId',
  costtype_id: 'costTypeId',
  costtype: 'costType',
  date: 'startDate',
  is_billable: 'billable',
  purchase_price_unit: 'purchasePrice',
  approval_status: 'approvalStatus',
});

const round = (n: number) => Math.round(n * 100) / 100;

/** An expense (reference: Expense, with attachments and note of 2021). */
function expenseV2(e: Expense) {
  const amount = e.amount ?? 0;
  const ct = e.costType;
  return {
    id: e.id,
    project: projectSimpleV2(e.project),
    service_id: e.projectService?.id ?? null,
    // without the costs right the cost type shows only its id and name
    costtype: ct
      ? {
          id: ct.id,
          label: ct.label ?? null,
          costtype: null,
          budgeted_amount: null,
          tariff: e.tariff,
          purchase_margin: null,
          purchase_tariff: e.purchasePrice,
        }
      : null,
    default_costtype: ct
      ? {
          id: ct.id,
          label: ct.label ?? null,
          blocked: ct.blocked ?? null,
          tariff: ct.tariff ?? null,
          is_unit_tariff: ct.isUnitTariff ?? null,
          unit_name: ct.unitName ?? null,
          is_attachment_allowed: ct.isAttachmentAllowed ?? null,
        }
      : null,
    amount,
    purchase_price_unit: e.purchasePrice,
    tariff: e.tariff,
    purchase_price_total: e.purchasePrice === null ? null : round(e.purchasePrice * amount),
    purchase_margin: null,
    total_price: e.tariff === null ? null : round(e.tariff * amount),
    is_billable: e.billable,
    approval_status: e.approvalStatusRow ? { label: e.approvalStatusRow.label } : null,
    invoice_status: e.invoiceId ? 'invoiced' : 'open',
    invoice: null,
    employee: e.employee ? employeeSimpleV2(e.employee) : null,
    date: e.startDate,
    note: e.note,
    service_purchase_start_date: e.projectService && 'startDate' in e.projectService ? e.projectService.startDate : null,
    service_purchase_end_date: e.projectService && 'endDate' in e.projectService ? e.projectService.endDate : null,
    attachments: e.attachments.map((a) => ({ id: a.id, file_name: 'fileName' in a ? a.fileName : null, file_hash: null })),
  };
}

/**
 * costs/expense (GET; POST, PUT and DELETE are our addition, the reference has no way to book costs), and
 * the same expenses as hours/employeeexpenses (list) and hours/employeeexpense/{id}.
 */
export const expenseV2Resources: AnyV2Resource[] = [
  v2Resource<Expense>({
    path: 'costs/expense',
    entity: expense,
    inputs: { create: createExpenseInput, update: updateExpenseInput, remove: true },
    procedures: (c) => c.costs.expense,
    names,
    read: expenseV2,
  }),
  v2Resource<Expense>({
    path: 'hours/employeeexpenses',
    entity: expense,
    procedures: (c) => c.costs.expense,
    names,
    readOnly: true,
    read: expenseV2,
  }),
  v2Resource<Expense>({
    path: 'hours/employeeexpense',
    entity: expense,
    procedures: (c) => c.costs.expense,
    names,
    readOnly: true,
    read: expenseV2,
  }),
];
