import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from './support/crm.js';
import { v2Create } from './support/projects.js';
import { type ApiClient, startTestService, type TestService } from './support/service.js';

/** No right is widened by a side door (issue 28 §6). */

let t: TestService;
let admin: ApiClient;
let projectsOnly: ApiClient;
let invoiceId: string;

type Term = { label: string; status: string; invoice_number: string | null; invoice: Record<string, unknown> | null };

beforeAll(async () => {
  t = await startTestService();
  admin = await t.environment('doors');
  projectsOnly = await t.user('doors', 'planner@doors.test', { projects: 'write', hours: 'write' });
  const debtor = await v2Create(admin, '/crm/organization', { name: 'Debtor BV' });
  invoiceId = await v2Create(admin, '/invoices/invoice', {
    organization_id: debtor,
    invoice_lines: [{ description: 'Term', amount: 1, price: 300 }],
  });
  const project = await v2Create(admin, '/projects/project', { name: 'Terms', billable: true });
  const created = await admin.v3('POST', '/projectService.create', {
    projectId: project,
    name: 'Fixed',
    invoiceMethod: 'fixed_price',
    price: 1000,
    amount: 1,
    invoiceInInstallments: true,
    installments: [{ name: 'Start', percentage: 30, expirationDate: '2026-03-01' }],
  });
  expect(created.status, created.text).toBe(201);
  // the term as the drafting puts it on an invoice (the drafting itself is tested in invoicing-drafting)
  await t.db.query(`UPDATE project_service_installment SET invoice_id = $1 WHERE name = 'Start'`, [invoiceId]);
});
afterAll(() => t?.stop());

async function term(client: ApiClient): Promise<Term> {
  const res = await client.v2('GET', '/projects/reverseinvoice');
  expect(res.status, res.text).toBe(200);
  const found = (res.body as Envelope<Term[]>).data.find((r) => r.label === 'Start');
  expect(found).toBeTruthy();
  return found as Term;
}

describe('rights through relations on side doors', () => {
  it('projects/reverseinvoice without the invoices right shows the invoice as {id, name} only: no date, no status', async () => {
    const seen = await term(projectsOnly);
    expect(Object.keys(seen.invoice ?? {}).sort()).toEqual(['id', 'name']);
    expect(seen.invoice?.id).toBe(invoiceId);
    expect(seen.invoice_number).toBeNull();
    const text = JSON.stringify(seen);
    expect(text).not.toContain('invoice_date');
    expect(text).not.toContain('"status":{');
  });

  it('projects/reverseinvoice with the invoices right shows the whole invoice', async () => {
    const seen = await term(admin);
    expect(seen.invoice).toMatchObject({ id: invoiceId, status: { id: 'draft' } });
    expect(seen.invoice).toHaveProperty('invoice_date');
  });
});
