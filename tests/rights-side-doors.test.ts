import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from './support/crm.js';
import { send } from './support/http.js';
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

describe('tokens above one’s own rights', () => {
  const trpc = (client: ApiClient, method: 'GET' | 'POST', path: string, body?: unknown) =>
    send(client.port, method, `/trpc/${path}`, {
      host: client.host,
      headers: { authorization: `Bearer ${client.token?.key}:${client.token?.secret}` },
      body,
    });
  const userId = async (email: string) =>
    ((await t.db.query<{ id: string }>('SELECT id FROM user_account WHERE email = $1', [email]))[0] as { id: string }).id;

  it('a user with the settings right may make tokens only for users whose rights they hold: never for one with more', async () => {
    const keeper = await t.user('doors', 'keeper@doors.test', { settings: 'write', crm: 'read' });
    await t.user('doors', 'reader@doors.test', { crm: 'read' });
    const tokens = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM api_token'))[0]?.n);
    const before = await tokens();
    const adminId = await userId(
      (
        await t.db.query<{ email: string }>(
          `SELECT email FROM user_account WHERE rights->>'hrm' = 'write' ORDER BY email LIMIT 1`,
        )
      )[0]?.email as string,
    );
    const refused = await trpc(keeper, 'POST', 'auth.tokens.create', { userId: adminId });
    expect(refused.status, refused.text).toBe(403);
    expect(await tokens()).toBe(before);
    const allowed = await trpc(keeper, 'POST', 'auth.tokens.create', { userId: await userId('reader@doors.test') });
    expect(allowed.status, allowed.text).toBe(200);
    expect(await tokens()).toBe(before + 1);
    // the page offers only the users one may make a token for
    const users = await trpc(keeper, 'GET', 'auth.tokens.users');
    const emails = (users.body as { result: { data: { email: string }[] } }).result.data.map((u) => u.email);
    expect(emails).toContain('reader@doors.test');
    expect(emails).toContain('keeper@doors.test');
    expect(emails).not.toContain('planner@doors.test');
  });
});
