import { z } from 'zod';
import { vatClass } from '../../sales/lookups/lookups.entity.js';
import { project } from '../../projects/project/project.entity.js';
import { defineEntity, embeddedRowSql, f } from '../../shared/entity/index.js';
import { projectSimple } from '../../shared/relation-shapes.js';

const amount = (sql: (t: string) => string) => f.computed('string', z.string(), (t) => `(${sql(t)})::numeric(14,2)::text`);

const notOnLine = (type: string, id: string) =>
  `NOT EXISTS (SELECT 1 FROM invoice_line l WHERE l.environment_id = t_env AND l.source_type = '${type}' AND l.source_id = ${id})`;

const services = (t: string, where: string) =>
  `FROM project_service s WHERE s.environment_id = ${t}.environment_id AND s.project_id = ${t}.id AND s.phase = 'execution' AND ${where}`;

/**
 * What is ready to be invoiced per project (v2 invoices/proposition), computed in SQL by
 * the same rules the drafting sources apply: fixed prices not yet billed, installments
 * come due (and those still to come), booked costs. Hours join with the hours source.
 */
export const proposition = defineEntity({
  type: 'proposition',
  table: 'project',
  module: 'invoices',
  nameField: 'name',
  scope: () => ({
    and: [
      { path: 'billable', op: 'eq', value: 'true' },
      { path: 'phase', op: 'eq', value: 'execution' },
    ],
  }),
  fields: {
    id: f.id(),
    name: f.requiredString(),
    projectNumber: f.string(),
    billable: f.boolean(),
    phase: f.requiredString(),
    /** the project itself, in the one project shape */
    project: f.computed('json', projectSimple, (t) => embeddedRowSql(project, projectSimple, `${t}.id`, `${t}.environment_id`), {
      filter: false,
      sort: false,
    }),
    /** approved, billable, not yet invoiced hours on services invoiced on hours, at their booked tariff */
    totalHours: amount(
      (t) =>
        `SELECT COALESCE(sum(round(h.duration_minutes / 60.0 * COALESCE(h.tariff, 0), 2)), 0)
           FROM hour_registration h JOIN project_service s ON s.id = h.project_service_id
          WHERE h.environment_id = ${t}.environment_id AND h.project_id = ${t}.id AND h.invoice_id IS NULL
            AND h.approval_status = 'approved' AND h.billable AND s.invoice_method = 'time_and_expenses'`,
    ),
    totalMileage: amount(() => '0'),
    totalFixed: amount(
      (t) =>
        `SELECT COALESCE(sum(s.price * COALESCE(s.amount, 1)), 0) ${services(t, `s.invoice_method = 'fixed_price' AND NOT s.invoice_in_installments AND s.kind = 'invoiceable'`)} AND ${notOnLine('fixed_price', 's.id').replace('t_env', `${t}.environment_id`)}`,
    ),
    totalTerms: amount(
      (t) =>
        `SELECT COALESCE(sum(COALESCE(i.price, i.percentage * COALESCE(s.price, 0) * COALESCE(s.amount, 1) / 100)), 0)
           FROM project_service_installment i JOIN project_service s ON s.id = i.project_service_id
          WHERE s.environment_id = ${t}.environment_id AND s.project_id = ${t}.id AND s.invoice_method = 'fixed_price'
            AND i.invoice_id IS NULL AND i.status = 'open' AND (i.expiration_date IS NULL OR i.expiration_date <= current_date)`,
    ),
    totalPurchase: amount(
      (t) =>
        `SELECT COALESCE(sum(pu.invoice_amount), 0) FROM purchase pu
          WHERE pu.environment_id = ${t}.environment_id AND pu.project_id = ${t}.id AND pu.invoice_amount IS NOT NULL
            AND ${notOnLine('purchase', 'pu.id').replace('t_env', `${t}.environment_id`)}`,
    ),
    totalAdvanceDeposit: amount(
      (t) =>
        `SELECT COALESCE(sum(s.price * COALESCE(s.amount, 1)), 0) ${services(t, `s.kind = 'advance'`)} AND ${notOnLine('fixed_price', 's.id').replace('t_env', `${t}.environment_id`)}`,
    ),
    totalFuture: amount(
      (t) =>
        `SELECT COALESCE(sum(COALESCE(i.price, i.percentage * COALESCE(s.price, 0) * COALESCE(s.amount, 1) / 100)), 0)
           FROM project_service_installment i JOIN project_service s ON s.id = i.project_service_id
          WHERE s.environment_id = ${t}.environment_id AND s.project_id = ${t}.id
            AND i.invoice_id IS NULL AND i.status = 'open' AND i.expiration_date > current_date`,
    ),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Proposition = z.infer<typeof proposition.schema>;

/** VAT classes as invoicing reads them: the sales declaration, under the invoices right. */
export const invoiceVatClass: typeof vatClass = { ...vatClass, module: 'invoices' };
