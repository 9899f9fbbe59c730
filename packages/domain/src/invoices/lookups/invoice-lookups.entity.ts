import { z } from 'zod';
import { defineEntity, f, type TargetEntity } from '../../shared/entity/index.js';
import { targets } from '../../shared/entity/targets.js';

/** The invoicing lookups of an environment (seeded per environment; see ../reference-data.seed.ts). */
const stamps = () => ({ createdAt: f.createdAt(), updatedAt: f.updatedAt() });

export const PAYMENT_METHODS = ['direct_debit', 'bank_transfer', 'cash'] as const;

/** A payment term: the due date is the invoice date plus `days`. */
export const paymentTerm = defineEntity({
  type: 'paymentterm',
  table: 'payment_term',
  module: 'invoices',
  nameField: 'name',
  defaultSort: [{ path: 'days', dir: 'asc' }],
  fields: {
    id: f.id(),
    name: f.requiredString(),
    days: f.requiredInteger(),
    method: f.computed('string', z.enum(PAYMENT_METHODS), (t) => `${t}.method`),
    isDefault: f.boolean(),
    ...stamps(),
  },
});
export type PaymentTerm = z.infer<typeof paymentTerm.schema>;
export const paymentTermShape = z.object({
  id: z.string(),
  name: z.string(),
  days: z.number().int(),
  method: z.enum(PAYMENT_METHODS),
});

/** The statuses an invoice shows (`key` is the invoice's status, or overdue). */
export const invoiceStatus = defineEntity({
  type: 'invoicestatus',
  table: 'invoice_status',
  module: 'invoices',
  nameField: 'name',
  defaultSort: [{ path: 'position', dir: 'asc' }],
  fields: {
    id: f.id(),
    key: f.requiredString(),
    name: f.requiredString(),
    color: f.string(),
    position: f.requiredInteger(),
    ...stamps(),
  },
});
export type InvoiceStatus = z.infer<typeof invoiceStatus.schema>;

export const reminderTemplate = defineEntity({
  type: 'remindertemplate',
  table: 'reminder_template',
  module: 'invoices',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: {
    id: f.id(),
    label: f.requiredString(),
    subject: f.requiredString(),
    body: f.requiredString(),
    attachInvoice: f.boolean(),
    ...stamps(),
  },
});
export type ReminderTemplate = z.infer<typeof reminderTemplate.schema>;

/** A step of a reminder set: its template, `sendAfter` days after the due date. */
export const reminderSetStep = defineEntity({
  type: 'remindersettemplate',
  table: 'reminder_set_template',
  module: 'invoices',
  fields: {
    id: f.id(),
    reminderTemplateId: f.requiredString({ references: () => targets.reminderTemplate }),
    label: f.requiredString(),
    sendAfter: f.requiredInteger(),
    position: f.requiredInteger(),
  },
});
export const reminderSetStepShape = z.object({
  id: z.string(),
  reminderTemplateId: z.string(),
  label: z.string(),
  sendAfter: z.number().int(),
  position: z.number().int(),
});

export const reminderSet = defineEntity({
  type: 'reminderset',
  table: 'reminder_set',
  module: 'invoices',
  nameField: 'label',
  defaultSort: [{ path: 'label', dir: 'asc' }],
  fields: {
    id: f.id(),
    label: f.requiredString(),
    disabled: f.boolean(),
    isDefault: f.boolean(),
    templates: f.many((): TargetEntity => reminderSetStep, reminderSetStepShape, {
      remote: 'reminder_set_id',
      orderBy: (s) => `${s}.position, ${s}.id`,
    }),
    ...stamps(),
  },
});
export type ReminderSet = z.infer<typeof reminderSet.schema>;
