import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../shared/environment-seeders.js';
import { newEntityId } from '../shared/ids.js';

/**
 * The invoicing reference data of a new environment: payment terms, the invoice
 * statuses, and a standard reminder set (the migration gives existing ones the same).
 */
export const seedInvoicingReferenceData: EnvironmentSeeder = async (db) => {
  const env = { environmentId: SCOPED_ENVIRONMENT };
  await db.paymentTerm.createMany({
    data: [
      { name: '14 days', days: 14, method: 'bank_transfer', isDefault: true },
      { name: '30 days', days: 30, method: 'bank_transfer', isDefault: false },
      { name: 'Direct debit', days: 7, method: 'direct_debit', isDefault: false },
      { name: 'Cash', days: 0, method: 'cash', isDefault: false },
    ].map((t) => ({ ...env, ...t, id: newEntityId('paymentterm') })),
  });
  await db.invoiceStatus.createMany({
    data: [
      { key: 'draft', name: 'Concept', color: '#9e9e9e' },
      { key: 'sent', name: 'Sent', color: '#2196f3' },
      { key: 'partially_paid', name: 'Partially paid', color: '#ff9800' },
      { key: 'paid', name: 'Paid', color: '#4caf50' },
      { key: 'overdue', name: 'Overdue', color: '#f44336' },
      { key: 'credited', name: 'Credited', color: '#795548' },
    ].map((s, position) => ({ ...env, ...s, position, id: newEntityId('invoicestatus') })),
  });
  const templates = [
    {
      label: 'First reminder',
      subject: 'Reminder: invoice {invoice_number}',
      body: 'Our invoice {invoice_number} was due on {due_date}. Please pay the open amount of {open_amount}.',
      sendAfter: 7,
    },
    {
      label: 'Second reminder',
      subject: 'Second reminder: invoice {invoice_number}',
      body: 'We have not yet received payment of invoice {invoice_number}, due on {due_date}.',
      sendAfter: 21,
    },
    {
      label: 'Final notice',
      subject: 'Final notice: invoice {invoice_number}',
      body: 'Invoice {invoice_number} is long overdue. Please pay {open_amount} within 7 days.',
      sendAfter: 35,
    },
  ].map((t) => ({ ...t, id: newEntityId('remindertemplate') }));
  await db.reminderTemplate.createMany({
    data: templates.map((t) => ({ ...env, id: t.id, label: t.label, subject: t.subject, body: t.body, attachInvoice: true })),
  });
  const setId = newEntityId('reminderset');
  await db.reminderSet.create({ data: { ...env, id: setId, label: 'Standard', disabled: false, isDefault: true } });
  await db.reminderSetTemplate.createMany({
    data: templates.map((t, position) => ({
      ...env,
      id: newEntityId('remindersettemplate'),
      reminderSetId: setId,
      reminderTemplateId: t.id,
      label: t.label,
      sendAfter: t.sendAfter,
      position,
    })),
  });
};
