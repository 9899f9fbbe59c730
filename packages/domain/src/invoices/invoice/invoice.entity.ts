import { z } from 'zod';
import { organization } from '../../crm/organization/organization.entity.js';
import { person } from '../../crm/person/person.entity.js';
import { revenueGroup, vatClass, vatClassShape } from '../../sales/lookups/lookups.entity.js';
import { project } from '../../projects/project/project.entity.js';
import { defineEntity, embeddedRowSql, f, type TargetEntity } from '../../shared/entity/index.js';
import { organizationSimple, personSimple, projectSimple } from '../../shared/relation-shapes.js';
import { paymentTerm, paymentTermShape } from '../lookups/invoice-lookups.entity.js';
import { targets } from '../../shared/entity/targets.js';

export const INVOICE_STATUSES = ['draft', 'sent', 'partially_paid', 'paid', 'credited'] as const;
export type InvoiceStatusKey = (typeof INVOICE_STATUSES)[number];
/** what an invoice shows: its status, or overdue when sent and unpaid after its due date */
export const INVOICE_STATES = [...INVOICE_STATUSES, 'overdue'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

const text = (sql: (t: string) => string) => f.computed('string', z.string(), sql);

/** A line of an invoice: quantity × price, its VAT class, and what it bills (its source). */
export const invoiceLine = defineEntity({
  type: 'invoiceline',
  table: 'invoice_line',
  module: 'invoices',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    invoiceId: f.requiredString(),
    projectServiceId: f.string({ references: () => targets.projectService }),
    projectId: f.string({ references: () => targets.project }),
    description: f.requiredString(),
    /** exact decimals, as text */
    quantity: text((t) => `${t}.quantity::text`),
    price: text((t) => `${t}.price::text`),
    /** quantity × price rounded half up to cents */
    amount: text((t) => `${t}.amount::text`),
    vatClass: f.ref((): TargetEntity => vatClass, vatClassShape, { column: 'vat_class_id' }),
    vatPercentage: text((t) => `${t}.vat_percentage::text`),
    /** amount × percentage / 100 rounded half up to cents */
    vatAmount: text((t) => `${t}.vat_amount::text`),
    revenueGroupId: f.string({ references: () => targets.revenueGroup }),
    revenueGroup: f.ref((): TargetEntity => revenueGroup, z.object({ id: z.string(), label: z.string() }), {
      column: 'revenue_group_id',
    }),
    lineDate: f.date(),
    sourceType: f.string(),
    sourceId: f.string(),
    position: f.requiredInteger(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export const invoiceLineShape = z.object({
  id: z.string(),
  projectServiceId: z.string().nullable(),
  projectId: z.string().nullable(),
  description: z.string(),
  quantity: z.string(),
  price: z.string(),
  amount: z.string(),
  vatClass: vatClassShape.nullable(),
  vatPercentage: z.string(),
  vatAmount: z.string(),
  revenueGroupId: z.string().nullable(),
  revenueGroup: z.object({ id: z.string(), label: z.string() }).nullable(),
  lineDate: z.string().nullable(),
  sourceType: z.string().nullable(),
  sourceId: z.string().nullable(),
  position: z.number().int(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

const stateSql = (t: string) =>
  `CASE WHEN ${t}.status IN ('sent', 'partially_paid') AND ${t}.due_date < current_date THEN 'overdue' ELSE ${t}.status END`;

/** VAT per class: the lines of a class summed (each line's VAT is rounded to cents; see invoice-totals.ts). */
const vatByClassSql = (t: string) =>
  `(SELECT COALESCE(json_agg(json_build_object('vatClassId', v.vat_class_id, 'percentage', v.p::text,
      'base', v.base::text, 'vat', v.vat::text) ORDER BY v.p, v.vat_class_id), '[]'::json)
    FROM (SELECT l.vat_class_id, l.vat_percentage AS p, sum(l.amount) AS base, sum(l.vat_amount) AS vat
            FROM invoice_line l WHERE l.invoice_id = ${t}.id AND l.environment_id = ${t}.environment_id
           GROUP BY l.vat_class_id, l.vat_percentage) v)`;

/**
 * The reminder an invoice is due for, computed from its reminder set (or the environment's
 * default): the last step whose `sendAfter` days after the due date have passed, and the next.
 */
const reminderSql = (t: string) =>
  `(SELECT json_build_object(
      'setId', rs.id, 'setLabel', rs.label, 'disabled', rs.disabled,
      'daysOverdue', GREATEST(current_date - ${t}.due_date, 0),
      'current', (SELECT json_build_object('id', s.id, 'label', s.label, 'sendAfter', s.send_after,
                    'reminderTemplateId', s.reminder_template_id, 'date', to_char(${t}.due_date + s.send_after, 'YYYY-MM-DD'))
                    FROM reminder_set_template s
                   WHERE s.reminder_set_id = rs.id AND s.environment_id = ${t}.environment_id
                     AND NOT rs.disabled AND ${t}.status IN ('sent', 'partially_paid')
                     AND ${t}.due_date + s.send_after <= current_date
                   ORDER BY s.send_after DESC, s.position DESC LIMIT 1),
      'next', (SELECT json_build_object('id', s.id, 'label', s.label, 'sendAfter', s.send_after,
                    'reminderTemplateId', s.reminder_template_id, 'date', to_char(${t}.due_date + s.send_after, 'YYYY-MM-DD'))
                 FROM reminder_set_template s
                WHERE s.reminder_set_id = rs.id AND s.environment_id = ${t}.environment_id
                  AND NOT rs.disabled AND ${t}.status IN ('sent', 'partially_paid')
                  AND ${t}.due_date + s.send_after > current_date
                ORDER BY s.send_after, s.position LIMIT 1))
    FROM reminder_set rs
   WHERE rs.environment_id = ${t}.environment_id AND ${t}.kind = 'invoice' AND ${t}.due_date IS NOT NULL
     AND (rs.id = ${t}.reminder_set_id OR (${t}.reminder_set_id IS NULL AND rs.is_default))
   ORDER BY (rs.id = ${t}.reminder_set_id) DESC LIMIT 1)`;

const reminderStep = z.object({
  id: z.string(),
  label: z.string(),
  sendAfter: z.number().int(),
  reminderTemplateId: z.string(),
  date: z.string(),
});
export const invoiceReminderShape = z
  .object({
    setId: z.string(),
    setLabel: z.string(),
    disabled: z.boolean(),
    daysOverdue: z.number().int(),
    current: reminderStep.nullable(),
    next: reminderStep.nullable(),
  })
  .nullable();
export type InvoiceReminder = z.infer<typeof invoiceReminderShape>;

export const vatAmountShape = z.object({
  vatClassId: z.string().nullable(),
  percentage: z.string(),
  base: z.string(),
  vat: z.string(),
});

/**
 * An invoice (or a credit invoice) with its lines. Amounts are exact decimal text; the
 * totals are stored by every write of the lines (invoice.write.ts) and always equal
 * the sums of the lines.
 */
export const invoice = defineEntity({
  type: 'invoice',
  table: 'invoice',
  module: 'invoices',
  nameField: 'invoiceNumber',
  defaultSort: [{ path: 'createdAt', dir: 'asc' }],
  fields: {
    id: f.id(),
    invoiceNumber: f.string({ writable: false }),
    kind: f.computed('string', z.enum(['invoice', 'credit']), (t) => `${t}.kind`),
    status: f.computed('string', z.enum(INVOICE_STATUSES), (t) => `${t}.status`),
    /** the status, or overdue */
    state: f.computed('string', z.enum(INVOICE_STATES), stateSql),
    statusKey: f.string({ column: 'status', writable: false }),
    invoiceDate: f.date(),
    dueDate: f.date({ writable: false }),
    organizationId: f.string({ references: () => targets.organization }),
    personId: f.string({ references: () => targets.person }),
    /** the debtor, as the reference embeds it (`{id, name}` without the crm right too); ids are checked on write */
    organization: f.ref((): TargetEntity => organization, organizationSimple, {
      column: 'organization_id',
      restricted: true,
    }),
    person: f.ref((): TargetEntity => person, personSimple, {
      column: 'person_id',
      restricted: true,
    }),
    projectId: f.string({ references: () => targets.project }),
    /** the invoice's project, in the one project shape */
    project: f.ref((): TargetEntity => project, projectSimple, { column: 'project_id', restricted: true, writable: false }),
    myOrganizationProfileId: f.string({ references: () => targets.myOrganizationProfile }),
    draftRequestId: f.string({ writable: false }),
    creditedInvoiceId: f.string({ writable: false }),
    paymentTerm: f.ref((): TargetEntity => paymentTerm, paymentTermShape, { column: 'payment_term_id' }),
    reminderSetId: f.string({ references: () => targets.reminderSet }),
    subject: f.string(),
    reference: f.string(),
    comments: f.string(),
    totalExcl: text((t) => `COALESCE(${t}.total_amount, 0)::text`),
    totalVat: text((t) => `${t}.total_vat::text`),
    totalIncl: text((t) => `${t}.total_incl::text`),
    totalPaid: text((t) => `${t}.total_paid::text`),
    totalOutstanding: text(
      (t) =>
        `CASE WHEN ${t}.status IN ('draft', 'credited') OR ${t}.kind = 'credit' THEN 0 ELSE ${t}.total_incl - ${t}.total_paid END::numeric(14,2)::text`,
    ),
    vatByClass: f.computed('json', z.array(vatAmountShape), vatByClassSql),
    /** the projects of the lines (and of the invoice), each once */
    projectIds: f.computed(
      'json',
      z.array(z.string()),
      (t) => `(SELECT COALESCE(json_agg(DISTINCT p.id ORDER BY p.id), '[]'::json) FROM (
          SELECT l.project_id AS id FROM invoice_line l WHERE l.invoice_id = ${t}.id AND l.environment_id = ${t}.environment_id AND l.project_id IS NOT NULL
          UNION SELECT ${t}.project_id WHERE ${t}.project_id IS NOT NULL) p)`,
    ),
    /** the projects of the lines (and of the invoice), each once, in the one project shape */
    projects: f.computed(
      'json',
      z.array(projectSimple),
      (
        t,
      ) => `(SELECT COALESCE(json_agg(${embeddedRowSql(project, projectSimple, 'p.id', `${t}.environment_id`)} ORDER BY p.id), '[]'::json) FROM (
          SELECT l.project_id AS id FROM invoice_line l WHERE l.invoice_id = ${t}.id AND l.environment_id = ${t}.environment_id AND l.project_id IS NOT NULL
          UNION SELECT ${t}.project_id WHERE ${t}.project_id IS NOT NULL) p)`,
      { filter: false, sort: false },
    ),
    reminder: f.computed('json', invoiceReminderShape, reminderSql),
    lines: f.many((): TargetEntity => invoiceLine, invoiceLineShape, {
      remote: 'invoice_id',
      orderBy: (l) => `${l}.position, ${l}.id`,
    }),
    sentAt: f.datetime({ writable: false }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
});
export type Invoice = z.infer<typeof invoice.schema>;
