import { SCOPED_ENVIRONMENT } from '@bo/db';
import type { EnvironmentSeeder } from '../../shared/environment-seeders.js';
import { newEntityId } from '../../shared/ids.js';

/** The sales lookups of a new environment (the migration gives existing ones the same sets). */
export const seedSalesLookups: EnvironmentSeeder = async (db) => {
  const env = { environmentId: SCOPED_ENVIRONMENT };
  await db.salesStatus.createMany({
    // the system labels integrations compare, and the readable names (docs/fidelity.md)
    data: ['Open', 'Won', 'Lost'].map((name, position) => ({
      ...env,
      id: newEntityId('salesstatus'),
      label: `OpportunityStatus_${name.toLowerCase()}`,
      name,
      position,
    })),
  });
  await db.salesProgress.createMany({
    data: [
      { label: 'Lead', color: '#90caf9', chanceToScore: 10 },
      { label: 'Qualified', color: '#42a5f5', chanceToScore: 30 },
      { label: 'Proposal', color: '#1e88e5', chanceToScore: 60 },
      { label: 'Negotiation', color: '#1565c0', chanceToScore: 80 },
    ].map((p, position) => ({ ...env, ...p, id: newEntityId('salesprogress'), position })),
  });
  await db.salesSource.createMany({
    data: ['Website', 'Referral', 'Event'].map((name) => ({ ...env, id: newEntityId('salessource'), name })),
  });
  await db.salesReason.createMany({
    data: [
      { name: 'Price', blocked: false },
      { name: 'Quality', blocked: false },
      { name: 'Timing', blocked: false },
      { name: 'No budget (retired)', blocked: true },
    ].map((r) => ({ ...env, ...r, id: newEntityId('salesreason') })),
  });
  await db.salesFilter.createMany({
    data: [
      { name: 'Status', key: 'status', values: ['Open', 'Won', 'Lost'] },
      { name: 'Expected closing', key: 'expected_closing_date', values: ['this_month', 'this_quarter', 'this_year', 'overdue'] },
    ].map((f) => ({ ...env, ...f, id: newEntityId('salesfilter') })),
  });
  await db.revenueGroup.createMany({
    data: ['Consultancy', 'Licences'].map((label) => ({ ...env, id: newEntityId('revenuegroup'), label })),
  });
  await db.vatClass.createMany({
    data: [
      { code: 'high', label: 'High rate', percentage: 21 },
      { code: 'low', label: 'Low rate', percentage: 9 },
      { code: 'zero', label: 'Zero rate', percentage: 0 },
    ].map((v) => ({ ...env, ...v, id: newEntityId('vatclass') })),
  });
  await db.quoteStatus.createMany({
    data: [
      { key: 'draft', label: 'Draft', color: '#9e9e9e' },
      { key: 'sent', label: 'Sent', color: '#1e88e5' },
      { key: 'accepted', label: 'Accepted', color: '#2e7d32' },
      { key: 'rejected', label: 'Rejected', color: '#c62828' },
    ].map((q, position) => ({ ...env, ...q, id: newEntityId('quotestatus'), position })),
  });
  await db.quoteTemplate.create({ data: { ...env, id: newEntityId('quotetemplate'), name: 'Standard quote', type: 'quote' } });
};
